// The one error the XML-RPC codec throws for input it cannot accept. Callers (the client,
// the sample server, the public XML-RPC API) turn it into a `protocol` failure or a fault,
// so its message is written for the team that sent the bad document: what is wrong and,
// where it helps, where (line and column) and what was expected instead.

export class XmlRpcProtocolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }
}
