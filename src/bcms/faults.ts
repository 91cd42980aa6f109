// The faults of the BCMS read API. Codes keep their meaning across versions (clients
// switch on them); every message says what to send instead.

export const FAULT = {
  unknownMethod: 1,
  badParams: 2,
  unknownArticle: 3,
  unknownServer: 4,
  unreadable: 5,
  unknownConsensusMethod: 6,
} as const;

export class Fault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'Fault';
  }
}
