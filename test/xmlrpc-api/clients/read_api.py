"""A BCMS read-API client on Python's standard xmlrpc.client: reads the annotations and the
consensus of one article and prints what it got as JSON, with the XML-RPC type of every
confidence, offset, rank and taxid as the library decoded it (float -> double, int -> int).

Usage: python3 read_api.py '<json: {url, article, pmid, hidden, weighted, pair}>'
"""
import json
import sys
import xmlrpc.client

args = json.loads(sys.argv[1])
api = xmlrpc.client.ServerProxy(args["url"])
types = {}


def type_name(value):
    if isinstance(value, bool):  # before int: bool is an int in Python
        return "boolean"
    return {int: "int", float: "double", str: "string"}.get(type(value), type(value).__name__)


def collect(value):
    """Records the type of every typed member of a result struct, and returns it as it is."""
    if isinstance(value, dict):
        for key, member in value.items():
            if key in ("confidence", "offset", "rank", "taxid"):
                types.setdefault(key, set()).add(type_name(member))
            if key == "interaction":
                types.setdefault("interaction", set()).add(",".join(type_name(v) for v in member))
            collect(member)
    elif isinstance(value, list):
        for item in value:
            collect(item)
    return value


def fault(call):
    try:
        call()
        return None
    except xmlrpc.client.Fault as e:
        return [e.faultCode, e.faultString]


out = {
    "methods": api.system.listMethods(),
    "help": api.system.methodHelp("Annotations.getAnnotation"),
    "signature": api.system.methodSignature("Annotations.getAnnotation"),
    "serverList": api.Annotations.getAnnotationServerList(args["pmid"]),
    "serverListById": api.Annotations.getAnnotationServerList(args["article"]),
    "resources": api.Resources.getServerList(),
    "all": collect(api.Annotations.getAnnotations(args["pmid"])),
    "allById": collect(api.Annotations.getAnnotations(args["article"])),
    "consensusMethods": api.Consensus.getConsensusMethods(),
    "consensusMethod": api.Consensus.getConsensusMethod("vote"),
    "consensus": collect(api.Consensus.getConsensus(args["pmid"])),
    "weighted": collect(api.Consensus.getConsensus(args["article"], args["weighted"])),
    "pair": collect(api.Consensus.getConsensus(args["pmid"], args["pair"])),
}
out["servers"] = {str(sid): api.Resources.getServer(sid) for sid in out["serverList"]}
out["one"] = {str(sid): collect(api.Annotations.getAnnotation(args["pmid"], sid)) for sid in out["serverList"]}
out["faults"] = {
    "unknownArticle": fault(lambda: api.Annotations.getAnnotations("no-such-article")),
    "unknownPmid": fault(lambda: api.Annotations.getAnnotations(99999999)),
    "challengeArticle": fault(lambda: api.Annotations.getAnnotations(args["hidden"])),
    "unknownMethod": fault(lambda: api.Annotations.getEverything(args["pmid"])),
    "badParams": fault(lambda: api.Annotations.getAnnotation(args["pmid"])),
    "badServer": fault(lambda: api.Annotations.getAnnotation(args["pmid"], 999)),
    "unknownConsensusMethod": fault(lambda: api.Consensus.getConsensus(args["pmid"], {"methods": ["nope"]})),
    "badOption": fault(lambda: api.Consensus.getConsensus(args["pmid"], {"colour": 1})),
}
out["types"] = {key: sorted(names) for key, names in types.items()}
print(json.dumps(out))
