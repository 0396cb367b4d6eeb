// The client's version, sent in the default User-Agent.
export const VERSION = '0.1.0';
