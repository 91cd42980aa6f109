"""A species tagger on Python's standard XML-RPC server (xmlrpc.server), answering the TX
task the way a BCMS species server did: `taxons`, the NCBI Taxonomy ids of the species
named in the text, in order of first mention, ranked 1, 2, … with confidence 1/rank.

The lexicon holds current taxa, an id merged in the test release (3000002, "Mus musculus"),
a deleted one ("unicorn") and one no release knows ("dragon"), so the meta-server's release
checks show. Prints "listening on http://HOST:PORT/ (method …)" once it serves.
"""
import argparse
import re
import sys
from xmlrpc.server import SimpleXMLRPCServer

LEXICON = [
    ("Mus musculus", 3000002),
    ("Escherichia coli", 562),
    ("human", 9606),
    ("mouse", 10090),
    ("yeast", 4932),
    ("unicorn", 3000100),
    ("dragon", 42424242),
]


def annotate(text, *_rest):
    found = []
    for name, taxid in LEXICON:
        match = re.search(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])", text, re.IGNORECASE)
        if match:
            found.append((match.start(), taxid))
    found.sort()
    return {"taxons": [{"taxid": taxid, "rank": i + 1, "confidence": 1.0 / (i + 1)} for i, (_, taxid) in enumerate(found)]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = SimpleXMLRPCServer((args.host, args.port), logRequests=False, allow_none=True)
    server.register_function(annotate, "Annotator.getAnnotation")
    print(f"listening on http://{args.host}:{server.server_address[1]}/ (method Annotator.getAnnotation)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
