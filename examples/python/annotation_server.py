#!/usr/bin/env python3
"""A sample annotation server for the metaserver, in plain Python (standard library only).

Copy this file and replace the body of `annotate()` with your own tagger. Everything
else -- the XML-RPC plumbing, the method name, the answer layout -- is what the
meta-server expects, so keep it.

The meta-server calls one method (default name `Annotator.getAnnotation`) per article:

    getAnnotation(text, given='', meta=None) -> struct

  text   the article as plain text (title, abstract, section headers and paragraphs)
  given  only for the COREF task: the given proteins as standoff lines
         "T4<TAB>Protein 275 278<TAB>p65" ('' when none)
  meta   only if you opted in at registration: {'article': id, 'tasks': [...]}

and expects one struct with a key per task you answer (leave a key out to skip a task):

  interaction     [relevant (bool), confidence (float)]                       ACT
  normalizations  [{'dbid': UniProt accession, 'confidence', 'rank'}, ...]    INT
  pairs           [{'a': accession, 'b': accession, 'confidence', 'rank'}]    IPT
  mentions        [{'offset', 'mention', 'type', 'ids'?, 'confidence'}, ...] MENTION
  coref           standoff text: 'T' Exp expressions and 'R' Coref links       COREF
  taxons          [{'taxid': NCBI Taxonomy id, 'confidence', 'rank'}, ...]    TX
  topics          [{'label': one of the challenge's labels, 'confidence'}]    TOPIC
  relations       [{'type', 'arg1', 'arg2': given entity ids, 'confidence', 'rank'}]  REL

Offsets count Unicode code points, which is exactly Python's str indexing: text[offset]
is the first character of a mention. Confidences must be in (0, 1]. XML-RPC ints are
32-bit, so keep integers below 2**31.

The rules below are deliberately simple and match the meta-server's built-in TypeScript
sample annotator exactly (its tests compare both answers):

  ACT      relevant when "interact", "bind" or "complex" occurs (ASCII, any case, also
           inside words); confidence n/(n+1) for n occurrences, else [False, 0.5].
  INT      every UniProt accession standing as a word, once, in order of first
           occurrence, rank i, confidence 1/(i+1).
  IPT      each two consecutive accessions of that list, rank i, confidence 1/(i+1).
  MENTION  every word starting with an ASCII letter, made of ASCII letters and digits,
           with an uppercase letter and a digit, that is not an accession ("BRCA1");
           confidence 0.9 without lowercase letters, else 0.6; type "protein"; ids
           ["NCBIGene:672"] when the word is in GENE_IDS (a few human genes).
  COREF    each pronoun "it"/"its"/"they" is linked to the given protein ending nearest
           before it (latest end, then latest start, then first listed).
  TX       every species of the short list SPECIES named as a word (after lower-casing
           ASCII letters only: "Human", "mice", "Mus musculus"), its NCBI Taxonomy id
           once, in order of first occurrence, rank i, confidence 1/(i+1).
  TOPIC    each LitCovid topic of TOPIC_STEMS whose stem occurs (ASCII, any case, also
           inside words), in the list's order, confidence n/(n+1) for n occurrences.
"Word" boundaries mean: the neighbouring character is not an ASCII letter or digit.

The same answers in the other protocols the meta-server speaks (register the server with
the same `protocol`):

  --protocol json            POST application/json {"text", "given"?, "article"?, "tasks"?}
                             -> 200 and the struct above as a JSON object
  --protocol pubannotation   PubAnnotation's annotation-server API: POST {"text": ...}
                             -> 200 and PubAnnotation JSON {text, denotations: [{id, span:
                             {begin, end}, obj}], attributes}: the mentions, spans in code
                             points (Python's str indexing again), confidence as an attribute
  --protocol pubannotation --async
                             the same, asynchronously: 303 See Other with Location
                             /results/<n> (and Retry-After); that URL answers 404 with
                             Retry-After until the result is ready, then 200 once, then 410 Gone

Batches (a server registered with batchSize > 1): in XML-RPC the meta-server calls
system.multicall with up to batchSize calls of your method, which the standard library
serves by itself (register_multicall_functions below); in the JSON protocols it POSTs a
JSON array of the objects above and expects an array of as many answers, in order.

Run:  python3 annotation_server.py --port 8000 [--host 127.0.0.1] [--method NAME]
                                   [--protocol xmlrpc|json|pubannotation [--async]]
"""
import argparse
import itertools
import json
import re
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

ACCESSION = r"(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})"
ACCESSION_WORD = re.compile(r"(?<![A-Za-z0-9])" + ACCESSION + r"(?![A-Za-z0-9])")
ACCESSION_ONLY = re.compile(ACCESSION)
# re.ASCII: case folding only for ASCII letters, as in the TypeScript version.
INTERACTION_WORD = re.compile(r"interact|bind|complex", re.IGNORECASE | re.ASCII)
TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*")
PRONOUN = re.compile(r"(?<![A-Za-z0-9])(?:[Ii]ts?|[Tt]hey)(?![A-Za-z0-9])")
GIVEN_LINE = re.compile(r"T([0-9]+)\t[^\t ]+ ([0-9]+) ([0-9]+)\t")
GIVEN_ID = re.compile(r"T([0-9]+)\t")
GIVEN_ENTITY = re.compile(r"(T[0-9]+)\t([^\t ]+) ([0-9]+) ([0-9]+)\t")
# Species names (lower case) and their NCBI Taxonomy ids: the same list in every sample.
SPECIES = {
    "homo sapiens": 9606, "human": 9606, "humans": 9606,
    "mus musculus": 10090, "mouse": 10090, "mice": 10090,
    "rattus norvegicus": 10116, "rat": 10116, "rats": 10116,
    "saccharomyces cerevisiae": 4932, "yeast": 4932,
    "escherichia coli": 562,
    "danio rerio": 7955, "zebrafish": 7955,
    "drosophila": 7227,
    "arabidopsis": 3702,
}
# Longer names first, so "homo sapiens" is one match.
SPECIES_WORD = re.compile(
    r"(?<![A-Za-z0-9])(?:" + "|".join(sorted(SPECIES, key=lambda name: (-len(name), name))) + r")(?![A-Za-z0-9])"
)
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def find_accessions(text: str) -> List[str]:
    """Well-formed UniProt accessions, once each, in order of first occurrence."""
    seen: Dict[str, None] = {}  # a dict keeps insertion order
    for match in ACCESSION_WORD.finditer(text):
        seen.setdefault(match.group(0), None)
    return list(seen)


def classify(text: str) -> List[Any]:
    n = len(INTERACTION_WORD.findall(text))
    return [True, n / (n + 1)] if n > 0 else [False, 0.5]


# The sample's dictionary of concept ids: a few human genes, NCBI Gene ids ("NS:accession").
GENE_IDS = {"BRCA1": "NCBIGene:672", "BRCA2": "NCBIGene:675", "TP53": "NCBIGene:7157", "MDM2": "NCBIGene:4193", "CD4": "NCBIGene:920"}


def find_mentions(text: str) -> List[Dict[str, Any]]:
    mentions = []
    for match in TOKEN.finditer(text):
        token = match.group(0)
        if not re.search(r"[A-Z]", token) or not re.search(r"[0-9]", token):
            continue
        if ACCESSION_ONLY.fullmatch(token):
            continue
        confidence = 0.6 if re.search(r"[a-z]", token) else 0.9
        # match.start() already counts code points: no conversion needed in Python.
        mention = {"offset": match.start(), "mention": token, "type": "protein", "confidence": confidence}
        if token in GENE_IDS:
            mention["ids"] = [GENE_IDS[token]]
        mentions.append(mention)
    return mentions


def read_given(given: str, text: str) -> List[Dict[str, int]]:
    proteins = []
    for line in given.split("\n"):
        match = GIVEN_LINE.match(line)
        if not match:
            continue
        pid, start, end = int(match.group(1)), int(match.group(2)), int(match.group(3))
        if start >= end or end > len(text) or re.search(r"[\t\r\n]", text[start:end]):
            continue
        proteins.append({"id": pid, "start": start, "end": end})
    return proteins


def coref_standoff(text: str, given: str) -> str:
    if given.strip() == "":
        return ""
    proteins = read_given(given, text)
    if not proteins:
        return ""
    ids = [int(m.group(1)) if m else 0 for m in (GIVEN_ID.match(line) for line in given.split("\n"))]
    next_id = max(ids) + 1
    expressions: List[str] = []
    links: List[str] = []
    protein_exp: Dict[int, int] = {}  # index in `proteins` -> id of its Exp expression

    def new_exp(start: int, end: int) -> int:
        nonlocal next_id
        exp_id = next_id
        next_id += 1
        expressions.append("T%d\tExp %d %d\t%s" % (exp_id, start, end, text[start:end]))
        return exp_id

    for match in PRONOUN.finditer(text):
        start = match.start()
        best: Optional[int] = None
        for index, protein in enumerate(proteins):
            if protein["end"] > start:
                continue
            if best is None or protein["end"] > proteins[best]["end"] or (
                protein["end"] == proteins[best]["end"] and protein["start"] > proteins[best]["start"]
            ):
                best = index
        if best is None:
            continue
        if best not in protein_exp:
            protein_exp[best] = new_exp(proteins[best]["start"], proteins[best]["end"])
        anaphor = new_exp(start, match.end())
        links.append("R%d\tCoref Anaphora:T%d Antecedent:T%d [T%d]" % (len(links) + 1, anaphor, protein_exp[best], proteins[best]["id"]))
    return "\n".join(expressions + links) if links else ""


# LitCovid's topics (BioCreative VII track 5) and the stem that names each.
TOPIC_STEMS = [
    ("Treatment", "treat"), ("Diagnosis", "diagnos"), ("Prevention", "prevent"), ("Mechanism", "mechanism"),
    ("Transmission", "transmi"), ("Epidemic Forecasting", "forecast"), ("Case Report", "case report"),
]


def find_topics(text: str) -> List[Dict[str, Any]]:
    """The topics whose stem occurs, with confidence n/(n+1) for n non-overlapping occurrences."""
    lower = text.translate(ASCII_LOWER)
    topics = []
    for label, stem in TOPIC_STEMS:
        n = lower.count(stem)
        if n > 0:
            topics.append({"label": label, "confidence": n / (n + 1)})
    return topics


def find_taxa(text: str) -> List[Dict[str, Any]]:
    """NCBI Taxonomy ids of the species named, once each, in order of first occurrence."""
    seen: Dict[int, None] = {}
    for match in SPECIES_WORD.finditer(text.translate(ASCII_LOWER)):
        seen.setdefault(SPECIES[match.group(0)], None)
    return [{"taxid": taxid, "rank": i + 1, "confidence": 1 / (i + 2)} for i, taxid in enumerate(seen)]


def find_relations(text: str, given: str) -> List[Dict[str, Any]]:
    """REL: a CHEMICAL and a later GENE* entity with "inhibit" or "activat" between them, no "." between."""
    entities = []
    for line in given.split("\n"):
        m = GIVEN_ENTITY.match(line)
        if m and int(m.group(4)) <= len(text) and int(m.group(3)) <= int(m.group(4)):
            entities.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4))))
    relations: List[Dict[str, Any]] = []
    for c_id, c_type, _, c_end in entities:
        if c_type != "CHEMICAL":
            continue
        for g_id, g_type, g_start, _ in entities:
            if not g_type.startswith("GENE") or g_start < c_end:
                continue
            between = text[c_end:g_start].translate(ASCII_LOWER)
            if "." in between:
                continue
            rel_type = "INHIBITOR" if "inhibit" in between else "ACTIVATOR" if "activat" in between else None
            if rel_type:
                relations.append({"type": rel_type, "arg1": c_id, "arg2": g_id, "rank": len(relations) + 1, "confidence": 1 / (len(relations) + 2)})
    return relations


def find_concept_relations(mentions: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """CREL: the first two distinct ids the mentions carry; CID for a chemical and a disease, else Association."""
    concepts: List[Dict[str, str]] = []
    for m in mentions:
        for concept_id in m.get("ids", []):
            if all(c["id"] != concept_id for c in concepts):
                concepts.append({"id": concept_id, "type": (m.get("type") or "").lower()})
    if len(concepts) < 2:
        return []
    a, b = concepts[0], concepts[1]
    chemical = a if a["type"] == "chemical" else b if b["type"] == "chemical" else None
    disease = a if a["type"] == "disease" else b if b["type"] == "disease" else None
    if chemical is not None and disease is not None and chemical is not disease:
        return [{"type": "CID", "concept1": chemical["id"], "concept2": disease["id"], "rank": 1, "confidence": 0.5}]
    return [{"type": "Association", "concept1": a["id"], "concept2": b["id"], "novelty": "Novel", "rank": 1, "confidence": 0.5}]


def annotate(text: str, given: str = "") -> Dict[str, Any]:
    """Replace this with your tagger. Return only the keys of the tasks you answer."""
    accessions = find_accessions(text)
    return {
        "interaction": classify(text),
        "normalizations": [
            {"dbid": acc, "dbname": "UniProt", "rank": i + 1, "confidence": 1 / (i + 2)} for i, acc in enumerate(accessions)
        ],
        "pairs": [
            {"a": accessions[i], "b": accessions[i + 1], "rank": i + 1, "confidence": 1 / (i + 2)}
            for i in range(len(accessions) - 1)
        ],
        "mentions": find_mentions(text),
        "coref": coref_standoff(text, given),
        "taxons": find_taxa(text),
        "topics": find_topics(text),
        "relations": find_relations(text, given),
        "concept_relations": find_concept_relations(find_mentions(text)),
    }


def get_annotation(text: str, given: str = "", meta: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The XML-RPC method. `meta` ({'article', 'tasks'}) is accepted and not needed here."""
    return annotate(text, given or "")


def pubannotation(text: str, params: Dict[str, Any]) -> Dict[str, Any]:
    """PubAnnotation JSON for the mentions: the request's other fields come back unchanged."""
    mentions = find_mentions(text)
    answer = dict(params)
    answer["text"] = text
    answer["denotations"] = [
        {"id": "T%d" % (i + 1), "span": {"begin": m["offset"], "end": m["offset"] + len(m["mention"])}, "obj": m["type"]}
        for i, m in enumerate(mentions)
    ]
    answer["attributes"] = [
        {"id": "A%d" % (i + 1), "subj": "T%d" % (i + 1), "pred": "confidence", "obj": m["confidence"]}
        for i, m in enumerate(mentions)
    ]
    # Ids as PubAnnotation serves PubTator's: an attribute pubann:denotes per id.
    ids = [("T%d" % (i + 1), concept) for i, m in enumerate(mentions) for concept in m.get("ids", [])]
    answer["attributes"] += [
        {"id": "A%d" % (len(mentions) + k + 1), "subj": subj, "pred": "pubann:denotes", "obj": concept}
        for k, (subj, concept) in enumerate(ids)
    ]
    return answer


class JsonHandler(BaseHTTPRequestHandler):
    """The JSON and PubAnnotation protocols (set on the class by main())."""

    protocol_name = "json"
    asynchronous = False
    results: Dict[int, Dict[str, Any]] = {}
    issued = itertools.count(1)
    issued_up_to = 0
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:  # no request log, as the XML-RPC server
        pass

    def send_json(self, status: int, value: Any, headers: Optional[Dict[str, str]] = None) -> None:
        body = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for name, field in (headers or {}).items():
            self.send_header(name, field)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        match = re.fullmatch(r"/results/([0-9]+)", self.path)
        if not (self.asynchronous and match):
            self.send_json(405, {"error": 'POST a JSON object {"text": ...} to annotate it'}, {"Allow": "POST"})
            return
        n = int(match.group(1))
        with self.lock:
            answer = self.results.pop(n, None)
            issued = JsonHandler.issued_up_to
        if answer is not None:
            self.send_json(200, answer)  # delivered once; asked again, it is gone
        elif 1 <= n <= issued:
            self.send_json(410, {"error": "result %d was delivered and removed" % n})
        else:
            self.send_json(404, {"error": "result %d is not ready" % n}, {"Retry-After": "1"})

    def answer(self, params: Dict[str, Any]) -> Any:
        text = params["text"]
        if self.protocol_name == "json":
            return annotate(text, params.get("given") or "")
        return pubannotation(text, {k: v for k, v in params.items() if k != "text"})

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            if "application/x-www-form-urlencoded" in (self.headers.get("Content-Type") or ""):
                params: Any = dict(urllib.parse.parse_qsl(raw.decode("utf-8")))
            else:
                params = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            self.send_json(400, {"error": "the body is not valid JSON: %s" % err})
            return
        # A batch: an array of requests, answered by an array of answers in the same order.
        requests = params if isinstance(params, list) else [params]
        if not requests or any(not isinstance(r, dict) or not isinstance(r.get("text"), str) for r in requests):
            self.send_json(400, {"error": 'the request needs a JSON object with "text", a string (or an array of them)'})
            return
        answers = [self.answer(r) for r in requests]
        answer: Any = answers if isinstance(params, list) else answers[0]
        if self.protocol_name == "json" or not self.asynchronous:
            self.send_json(200, answer)
            return
        # Asynchronous: the result waits at its own URL; the client polls it.
        with self.lock:
            n = next(self.issued)
            JsonHandler.issued_up_to = n
            self.results[n] = answer
        self.send_response(303)
        self.send_header("Location", "/results/%d" % n)
        self.send_header("Retry-After", "0")
        self.send_header("Content-Length", "0")
        self.end_headers()


class AnyPathHandler(SimpleXMLRPCRequestHandler):
    rpc_paths = ()  # answer on any path: "/", "/RPC2", whatever the team registered


def main() -> None:
    parser = argparse.ArgumentParser(description="Sample XML-RPC annotation server for the metaserver.")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (0 picks a free one; default 8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--method", default="Annotator.getAnnotation", help="method name registered with the meta-server")
    parser.add_argument("--protocol", default="xmlrpc", choices=["xmlrpc", "json", "pubannotation"], help="protocol to answer in (register the same)")
    parser.add_argument("--async", dest="asynchronous", action="store_true", help="pubannotation only: answer asynchronously (303 See Other)")
    args = parser.parse_args()
    if args.asynchronous and args.protocol != "pubannotation":
        parser.error("--async goes with --protocol pubannotation")
    if args.protocol != "xmlrpc":
        JsonHandler.protocol_name = args.protocol
        JsonHandler.asynchronous = args.asynchronous
        http_server = ThreadingHTTPServer((args.host, args.port), JsonHandler)
        host, port = http_server.server_address[0], http_server.server_address[1]
        print("listening on http://%s:%d/ (protocol %s%s)" % (host, port, args.protocol, ", asynchronous" if args.asynchronous else ""), flush=True)
        try:
            http_server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            http_server.server_close()
        return

    server = SimpleXMLRPCServer(
        (args.host, args.port), requestHandler=AnyPathHandler, allow_none=False, logRequests=False, encoding="utf-8"
    )
    server.register_function(get_annotation, args.method)
    # system.multicall: several articles in one call, for a server registered with batchSize > 1.
    server.register_multicall_functions()
    host, port = server.server_address[0], server.server_address[1]
    # The ready line: scripts (and the meta-server's tests) wait for it before calling.
    print("listening on http://%s:%d/ (method %s)" % (host, port, args.method), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
