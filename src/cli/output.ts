// Where a command's output goes: the Output sink (stdout for data, stderr for notes and the spinner) and `show`,
// which runs one API call and prints `--json` (exactly the response body) or a human view.
import type { WithResponse } from '../client/index.js';
import { note, print, printJson } from './render.js';
import { withSpinner } from './spinner.js';

/** The sink every command writes to; `processOutput` in the CLI, a recorder in tests. */
export interface Output {
  /** A block of text and a newline, on stdout. */
  print(text: string): void;
  /** A body as 2-space indented JSON and a newline, on stdout. */
  json(body: unknown): void;
  /** A note for the user and a newline, on stderr: never part of the data. */
  note(text: string): void;
  /**
   * Await `work` under a spinner on stderr (shown only when stderr is a terminal). `say` replaces the spinner's text
   * while `work` runs (without a terminal, it writes the text to stderr as a note).
   */
  spin<T>(text: string, work: (say: (text: string) => void) => Promise<T>): Promise<T>;
}

/** The process's stdout and stderr. */
export const processOutput: Output = { print, json: printJson, note, spin: withSpinner };

export interface Call<T> {
  withResponse(): Promise<WithResponse<T>>;
}

/** Await `call` under a spinner; print the raw body with `json`, else `view(data)`. Returns the parsed data. */
export async function show<T>(
  output: Output,
  json: boolean,
  spinnerText: string,
  call: () => Call<T>,
  view: (data: T) => string,
): Promise<T> {
  const { data, response } = await output.spin(spinnerText, () => call().withResponse());
  if (json) output.json(response.body);
  else output.print(view(data));
  return data;
}
