// A spinner on stderr while a request waits (a create can wait 15 s); only when stderr is a TTY with a known
// width (ora redraws by counting wrapped lines), so ora is not even loaded when output is piped or captured.

/** Await `work` under a spinner; `say(text)` replaces the spinner's text, or writes it to stderr when there is none. */
export async function withSpinner<T>(text: string, work: (say: (text: string) => void) => Promise<T>): Promise<T> {
  if (!process.stderr.isTTY || !(process.stderr.columns > 0)) return work((t) => void process.stderr.write(`${t}\n`));
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr, discardStdin: false }).start();
  try {
    return await work((t) => void (spinner.text = t));
  } finally {
    spinner.stop();
  }
}
