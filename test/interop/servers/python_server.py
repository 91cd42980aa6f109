"""Annotation servers built on Python's standard library, written the way a Python team
would: str.find on the text as the library hands it over. Three ways to serve it:

  simple    SimpleXMLRPCServer, one request at a time
  threaded  SimpleXMLRPCServer with socketserver.ThreadingMixIn
  cgi       CGIXMLRPCRequestHandler, run as a CGI script by http.server's CGI handler,
            which passes the script's output on unchanged
  cgi-host  the same script run by a minimal CGI host that, like Apache httpd, reads the
            script's header lines and sends them again as HTTP

Prints "listening on URL" once it accepts calls.
"""
import os
import shutil
import signal
import socketserver
import stat
import subprocess
import sys
import tempfile
from xmlrpc.server import CGIXMLRPCRequestHandler, SimpleXMLRPCServer

# Names to find; U+1D6FC is the mathematical alpha of "alpha-synuclein".
NAMES = ["BRCA1", "p53", "\U0001d6fc-synuclein", "M\u00fcller"]


def annotate(text):
    mentions = []
    for name in NAMES:
        at = text.find(name)
        while at >= 0:
            mentions.append({"offset": at, "mention": name, "type": "protein"})
            at = text.find(name, at + 1)
    relevant = "binds" in text or "interacts" in text
    return {"mentions": mentions, "interaction": [relevant, 0.75]}


def crash(text):
    raise RuntimeError("the tagger crashed")


def register(server):
    server.register_function(annotate, "Annotator.getAnnotation")
    server.register_function(crash, "Annotator.crash")


class ThreadedServer(socketserver.ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True


def serve_xmlrpc(server_class):
    server = server_class(("127.0.0.1", 0), logRequests=False)
    register(server)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/RPC2", flush=True)
    server.serve_forever()


CGI_SCRIPT = """#!{python}
import sys
sys.path.insert(0, {here!r})
from xmlrpc.server import CGIXMLRPCRequestHandler
import python_server
handler = CGIXMLRPCRequestHandler()
python_server.register(handler)
handler.handle_request()
"""


def cgi_directory():
    """A temporary directory holding cgi-bin/annotate.py; removed when the server stops."""
    root = tempfile.mkdtemp(prefix="xmlrpc-cgi-")
    os.mkdir(os.path.join(root, "cgi-bin"))
    script = os.path.join(root, "cgi-bin", "annotate.py")
    with open(script, "w") as f:
        f.write(CGI_SCRIPT.format(python=sys.executable, here=os.path.dirname(os.path.abspath(__file__))))
    os.chmod(script, stat.S_IRWXU)
    return root, script


def serve(server, root):
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/cgi-bin/annotate.py", flush=True)
    try:
        server.serve_forever()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def serve_cgi():
    # http.server runs scripts found under cgi-bin/ of the directory it serves.
    from http.server import CGIHTTPRequestHandler, HTTPServer

    root, _ = cgi_directory()
    os.chdir(root)

    class Quiet(CGIHTTPRequestHandler):
        # Run the script with subprocess rather than fork + exec: as root, the forking
        # path switches to the user "nobody", who cannot read a private temporary directory.
        have_fork = False

        def log_message(self, *args):
            pass

    serve(HTTPServer(("127.0.0.1", 0), Quiet), root)


def serve_cgi_host():
    from http.server import BaseHTTPRequestHandler, HTTPServer

    root, script = cgi_directory()

    class Host(BaseHTTPRequestHandler):
        def do_POST(self):
            if self.path != "/cgi-bin/annotate.py":
                self.send_error(404)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            env = dict(os.environ, GATEWAY_INTERFACE="CGI/1.1", REQUEST_METHOD="POST", SCRIPT_NAME=self.path,
                       CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)))
            out = subprocess.run([sys.executable, script], input=body, env=env, capture_output=True).stdout
            # The header block ends at the first empty line, whatever the line ends.
            ends = [i for i in (out.find(b"\r\n\r\n"), out.find(b"\n\n")) if i >= 0]
            cut = min(ends) if ends else len(out)
            head, payload = out[:cut], out[cut + (4 if out.startswith(b"\r\n\r\n", cut) else 2):]
            headers = [line.rstrip(b"\r").decode("latin-1").split(":", 1) for line in head.split(b"\n") if b":" in line]
            status = next((v.strip() for k, v in headers if k.lower() == "status"), "200 OK")
            self.send_response(int(status.split()[0]))
            for name, value in headers:
                if name.lower() != "status":
                    self.send_header(name, value.strip())
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    serve(HTTPServer(("127.0.0.1", 0), Host), root)


if __name__ == "__main__":
    # Stopped with SIGTERM: exit normally, so the CGI directory is removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    mode = sys.argv[1] if len(sys.argv) > 1 else "simple"
    if mode == "cgi":
        serve_cgi()
    elif mode == "cgi-host":
        serve_cgi_host()
    else:
        serve_xmlrpc(ThreadedServer if mode == "threaded" else SimpleXMLRPCServer)
