export interface Cluster {
  port: number;
  dir: string;
  readonly pid: number;
  crash(opts?: { downMs?: number; down?: () => unknown }): Promise<void>;
  url(db?: string): string;
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
}
export function postgresBinDir(): string | undefined;
export function postgresMissing(): string | undefined;
export function startCluster(opts?: { fsync?: boolean; log?: (line: string) => void }): Promise<Cluster>;
