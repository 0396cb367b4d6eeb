// A spinner on stderr while a request waits (a create can wait 15 s); only when stderr is a TTY with a known
// width (ora redraws by counting wrapped lines), so ora is not even loaded when output is piped or captured.

export async function withSpinner<T>(text: string, work: () => Promise<T>): Promise<T> {
  if (!process.stderr.isTTY || !(process.stderr.columns > 0)) return work();
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr, discardStdin: false }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
