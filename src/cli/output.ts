// Runs one API call for a command: spinner while it waits, then `--json` (exactly the response body) or a human view.
import type { WithResponse } from '../client/index.js';
import { print, printJson } from './render.js';
import { withSpinner } from './spinner.js';

export interface Call<T> {
  withResponse(): Promise<WithResponse<T>>;
}

/** Await `call` under a spinner; print the raw body with --json, else `view(data)`. Returns the parsed data. */
export async function show<T>(opts: Record<string, unknown>, spinnerText: string, call: () => Call<T>, view: (data: T) => string): Promise<T> {
  const { data, response } = await withSpinner(spinnerText, () => call().withResponse());
  if (opts.json) printJson(response.body);
  else print(view(data));
  return data;
}
