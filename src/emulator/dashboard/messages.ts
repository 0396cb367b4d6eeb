// Every text of the dashboard, in English and Russian (the language switch, or Accept-Language, as on the payment
// page). Gateway values — statuses, types, methods, reasons, codes — are shown as the gateway returns them, not
// translated: they are what a developer greps for. `{name}` placeholders are filled (escaped) by `dt`.
import { fill, type Lang } from '../pages/i18n.js';

const en = {
  'app.name': 'paygate dashboard',
  'app.sandbox': 'Sandbox — no real money moves.',
  'nav.label': 'Dashboard sections',
  'nav.operations': 'Operations',
  'nav.balances': 'Balances',
  'nav.webhooks': 'Webhooks',
  'nav.requests': 'Requests',
  'nav.clock': 'Clock',
  'nav.pool': 'Pool',
  'nav.workspaces': 'Workspaces',
  'nav.language': 'Language',
  'nav.skip': 'Skip to content',
  'who.admin': 'Signed in as admin (every shop)',
  'who.shop': 'Signed in with the key of shop {shop}',
  'signout.button': 'Sign out',
  'signin.title': 'Sign in',
  'signin.lead':
    'Paste the admin token (every shop) or a shop’s API key (that shop only). Both are printed by paygate sandbox start.',
  'signin.label': 'Admin token or API key',
  'signin.button': 'Sign in',
  'signin.wrong': 'That is neither the admin token nor a valid API key of this sandbox.',
  'signin.empty': 'Enter the admin token or an API key.',
  'signin.out': 'You are signed out.',
  'signin.expired': 'Your session has ended. Sign in again.',
  'refused.title': 'Refused',
  'csrf.refused':
    'The form was refused: it did not come from this dashboard’s own page. Reload the page and try again.',
  'coming.title': '{page}',
  'coming.text': 'This page is coming. Meanwhile the CLI shows it: {command}.',
  'live.on': 'Live: changes appear by themselves.',
  'notfound.title': 'Not found',
  'notfound.text': 'No such page, or no operation of yours with this id.',
  'back.operations': 'Back to operations',
} as const;

export type DashKey = keyof typeof en;

const ru: Record<DashKey, string> = {
  'app.name': 'Панель paygate',
  'app.sandbox': 'Песочница — настоящие деньги не движутся.',
  'nav.label': 'Разделы панели',
  'nav.operations': 'Операции',
  'nav.balances': 'Балансы',
  'nav.webhooks': 'Вебхуки',
  'nav.requests': 'Запросы',
  'nav.clock': 'Часы',
  'nav.pool': 'Пул',
  'nav.workspaces': 'Рабочие пространства',
  'nav.language': 'Язык',
  'nav.skip': 'Перейти к содержимому',
  'who.admin': 'Вход как администратор (все магазины)',
  'who.shop': 'Вход по ключу магазина {shop}',
  'signout.button': 'Выйти',
  'signin.title': 'Вход',
  'signin.lead':
    'Вставьте токен администратора (все магазины) или API-ключ магазина (только этот магазин). Оба печатает paygate sandbox start.',
  'signin.label': 'Токен администратора или API-ключ',
  'signin.button': 'Войти',
  'signin.wrong': 'Это не токен администратора и не действующий API-ключ этой песочницы.',
  'signin.empty': 'Введите токен администратора или API-ключ.',
  'signin.out': 'Вы вышли.',
  'signin.expired': 'Сеанс закончился. Войдите снова.',
  'refused.title': 'Отклонено',
  'csrf.refused': 'Форма отклонена: она отправлена не со страницы этой панели. Обновите страницу и попробуйте снова.',
  'coming.title': '{page}',
  'coming.text': 'Эта страница скоро появится. Пока её показывает CLI: {command}.',
  'live.on': 'В реальном времени: изменения появляются сами.',
  'notfound.title': 'Не найдено',
  'notfound.text': 'Такой страницы нет, или у вас нет операции с таким id.',
  'back.operations': 'К списку операций',
};

export const DASH_MESSAGES: Record<Lang, Record<DashKey, string>> = { en, ru };

/** The dashboard's text of `key` in `lang`, placeholders filled: HTML. */
export function dt(lang: Lang, key: DashKey, vars: Record<string, string> = {}): string {
  return fill(DASH_MESSAGES[lang][key], vars);
}
