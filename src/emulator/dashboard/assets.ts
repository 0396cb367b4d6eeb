// The dashboard's stylesheet and script, served by the sandbox under `<dashboard>/assets/` like the payment page's.
import { staticFiles } from '../pages/assets.js';
import { DASH_SCRIPT } from './assets/script.js';
import { DASH_CSS } from './assets/style.js';
import { PAGES_CSS, PAGES_SCRIPT } from './pages/assets.js';

const FILES = staticFiles('dashboard', DASH_CSS + PAGES_CSS, DASH_SCRIPT + PAGES_SCRIPT);
export const DASH_ASSETS = FILES.paths;
export const dashAsset = FILES.serve;
