#!/usr/bin/env python3
"""A pull agent for the metaserver, in plain Python (standard library only).

For a team whose annotation server the meta-server cannot reach (NAT, a campus firewall,
a GPU node of a cluster): register the server with protocol "pull" (no URL), run your
server as usual on your own network, and run this next to it. Only outbound HTTPS is used.
It does what `metaserver agent --forward` does:

  - takes articles on lease:   POST {url}/api/servers/{id}/leases?wait=30&keepAlive=1
                               -> 204 (no work yet) or 200 {lease, deadline, keepAliveSeconds,
                                  article: {id?, text, given?, tasks}}
  - keeps them alive (a lease not renewed within keepAliveSeconds is given back, so an
    agent that is killed frees its leases within seconds), every third of that window:
                               POST {url}/api/servers/{id}/leases/renew {"leases": [...]}
                               -> {"held": [...]}; work on a lease no longer held is dropped
  - hands each to your server in its protocol (xmlrpc: getAnnotation(text[, given][, meta]);
    json: POST {"text", "given"?, "article"?, "tasks"?}), and answers the lease with what
    came back:                 POST {url}/api/leases/{lease}/answer?next=1   (the answer as JSON)
                               -> the receipt; its "next", when there is work, is the next lease
                                  (one request per article instead of two)
  - a failing server is reported with its message:
                               POST {url}/api/leases/{lease}/fail     {"message": ...}
  - on Ctrl-C / SIGTERM the leases held are given back (not left to time out):
                               POST {url}/api/leases/{lease}/release
  - your server not answering at all (connection refused, reset) is not the article's
    fault: the lease is given back, no lease is taken until your server answers again
    (probed with a back-off of at most 5 s), and the meta-server is told (renew's
    "localServer": {"state": "down"|"up", "detail"}) so your server's page says so.
  - while the meta-server cannot be reached it tries again with a growing back-off (at
    most 30 s).

Run:  METASERVER_URL=https://meta.example.org METASERVER_TOKEN=TEAM_TOKEN \\
      python3 pull_agent.py --server 12 \\
          --forward http://127.0.0.1:8000/RPC2 [--protocol xmlrpc|json] [--method NAME] \\
          [--concurrency N] [--wait SECONDS]
(--url and --token work too, but a token on the command line is visible in `ps`.)
A meta-server certificate signed by your organisation's own authority: set
SSL_CERT_FILE=/path/to/ca-bundle.pem (the bundle must hold that authority).
"""
import argparse
import calendar
import json
import os
import random
import signal
import socket
import ssl
import sys
import threading
import time
import urllib.error
import urllib.request
import xmlrpc.client


def log(line):
    sys.stderr.write('%s %s\n' % (time.strftime('%Y-%m-%dT%H:%M:%S'), line))
    sys.stderr.flush()


class LinkDown(Exception):
    """The meta-server cannot be reached, or answered 5xx/429: try again later."""


class Refused(Exception):
    """The meta-server refused the request (4xx); its message says why."""

    def __init__(self, status, message):
        Exception.__init__(self, 'HTTP %d: %s' % (status, message))
        self.status = status


class MetaServer:
    def __init__(self, url, token, server_id):
        self.url = url.rstrip('/')
        self.token = token
        self.server_id = server_id

    def post(self, path, body=None, timeout=90):
        data = None if body is None else json.dumps(body).encode('utf-8')
        req = urllib.request.Request(self.url + path, data=data, method='POST')
        req.add_header('Authorization', 'Bearer ' + self.token)
        req.add_header('Accept', 'application/json')
        if data is not None:
            req.add_header('Content-Type', 'application/json')
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                text = res.read().decode('utf-8')
                return res.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as e:
            text = e.read().decode('utf-8', 'replace')
            try:
                message = json.loads(text)['error']['message']
            except Exception:
                message = text[:300]
            if e.code >= 500 or e.code == 429:
                raise LinkDown('the meta-server answered HTTP %d: %s' % (e.code, message))
            raise Refused(e.code, message)
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, 'reason', e)
            if isinstance(reason, ssl.SSLCertVerificationError):
                raise LinkDown('cannot reach the meta-server at %s: %s; if its certificate is signed by your '
                               "organisation's own authority, set SSL_CERT_FILE=/path/to/ca-bundle.pem" % (self.url, reason))
            raise LinkDown('cannot reach the meta-server at %s: %s' % (self.url, e))

    def take(self, wait):
        path = '/api/servers/%d/leases?wait=%d&keepAlive=1' % (self.server_id, wait)
        status, body = self.post(path, timeout=wait + 30)
        return body if status == 200 else None

    def renew(self, leases, local=None):
        body = {'leases': leases}
        if local:
            body['localServer'] = local
        return self.post('/api/servers/%d/leases/renew' % self.server_id, body, timeout=30)[1]['held']

    def concurrency(self):
        req = urllib.request.Request('%s/api/servers/%d' % (self.url, self.server_id))
        req.add_header('Authorization', 'Bearer ' + self.token)
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.loads(res.read().decode('utf-8'))['concurrency']

    def answer(self, lease, answer, want_next=False):
        """The receipt; with want_next, a stored answer's receipt carries the next lease ('next') when there is work."""
        return self.post('/api/leases/%s/answer%s' % (lease, '?next=1' if want_next else ''), answer)[1]

    def fail(self, lease, message):
        return self.post('/api/leases/%s/fail' % lease, {'message': message[:4000] or 'the server failed'})[1]

    def release(self, lease):
        self.post('/api/leases/%s/release' % lease)


class LocalDown(Exception):
    """Your server did not answer at all (connection refused, reset): not the article's fault."""


def unreachable(e):
    reason = getattr(e, 'reason', e) if isinstance(e, urllib.error.URLError) else e
    return isinstance(reason, (ConnectionRefusedError, ConnectionResetError, ConnectionAbortedError, socket.gaierror))


def probe(url):
    """True when your server answers anything at all (even an HTTP error)."""
    try:
        urllib.request.urlopen(url, timeout=2).close()
    except urllib.error.HTTPError:
        return True
    except Exception:
        return False
    return True


def forward(args, article, timeout):
    """Your server's answer (a dict), in its protocol; raises with its message when it fails."""
    meta = {'article': article['id'], 'tasks': article['tasks']} if 'id' in article else None
    if args.protocol == 'json':
        body = {'text': article['text']}
        if 'given' in article:
            body['given'] = article['given']
        if meta:
            body.update(meta)
        req = urllib.request.Request(args.forward, data=json.dumps(body).encode('utf-8'), method='POST')
        req.add_header('Content-Type', 'application/json; charset=utf-8')
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return json.loads(res.read().decode('utf-8'))
    params = [article['text']]
    if 'given' in article:
        params.append(article['given'])
    if meta:
        params.append(meta)
    proxy = xmlrpc.client.ServerProxy(args.forward, allow_none=False)
    return getattr(proxy, args.method)(*params)


def forward_or_down(args, article, timeout):
    try:
        return forward(args, article, timeout)
    except Exception as e:
        if unreachable(e):
            raise LocalDown(str(e))
        raise


class Agent:
    def __init__(self, args):
        self.args = args
        self.meta = MetaServer(args.url, args.token, args.server)
        self.stopping = threading.Event()
        self.counts = {'leased': 0, 'stored': 0, 'failed': 0, 'given back': 0}
        self.lock = threading.Lock()
        self.held = set()
        # Leases the meta-server no longer holds (not renewed in time) or that were given back: never answered.
        self.dropped = set()
        self.renew_every = 5.0
        self.local = None  # what to tell the meta-server of your server: {'state': 'down'|'up', ...}
        self.local_up = threading.Event()
        self.local_up.set()

    def count(self, what):
        with self.lock:
            self.counts[what] += 1

    def backoff(self, previous, first=0.5, cap=30.0):
        return min(cap, (previous * 2 if previous else first) * (0.75 + random.random() / 2))

    def renewer(self):
        """Renews the leases held every third of their keep-alive window, and says whether your server answers."""
        last = time.time()
        while not self.stopping.wait(0.1):  # renew_every shrinks with the first offer's window
            if time.time() - last < self.renew_every:
                continue
            last = time.time()
            with self.lock:
                held, local = list(self.held), self.local
            if not held and not local:
                continue
            try:
                still = set(self.meta.renew(held, local))
            except (LinkDown, Refused) as e:
                log('could not renew the leases held: %s' % e)
                continue
            with self.lock:
                if local and local['state'] == 'up' and self.local is local:
                    self.local = None
                for lease in held:
                    if lease not in still and lease in self.held:
                        self.dropped.add(lease)
                        log('lease %s: the meta-server no longer holds it (given back or expired); it will not be answered'
                            % lease[:8])

    def local_down(self, why):
        """Pauses taking leases until your server answers a probe again (one thread probes, the others wait)."""
        with self.lock:
            if not self.local_up.is_set():
                return
            self.local_up.clear()
            self.local = {'state': 'down', 'detail': why[:1000]}
        log('the local annotation server at %s does not answer (%s); leases paused until it does' % (self.args.forward, why))
        delay = 0
        while not self.stopping.is_set():
            delay = self.backoff(delay, first=0.25, cap=5.0)
            if self.stopping.wait(delay):
                break
            if probe(self.args.forward):
                log('the local annotation server answers again; taking leases')
                with self.lock:
                    self.local = {'state': 'up'}
                break
        self.local_up.set()

    def loop(self):
        delay = 0
        while not self.stopping.is_set():
            self.local_up.wait()
            try:
                offer = self.meta.take(self.args.wait)
                delay = 0
            except Refused as e:
                log('stopping: %s' % e)
                self.stopping.set()
                return
            except LinkDown as e:
                delay = self.backoff(delay)
                log('%s; trying again in %.1f s' % (e, delay))
                self.stopping.wait(delay)
                continue
            # A stored answer's receipt may carry the next lease: worked on at once, without a lease request.
            # (stopping, it is given back).
            while offer:
                offer = self.work(offer)

    def work(self, offer):
        """Settles the lease; answers the next lease when the answer's receipt carried one."""
        self.count('leased')
        lease = offer['lease']
        if offer.get('keepAliveSeconds'):
            self.renew_every = max(0.2, min(self.renew_every, offer['keepAliveSeconds'] / 3.0))
        with self.lock:
            self.held.add(lease)
        try:
            return self.handle(offer, lease)
        finally:
            with self.lock:
                self.held.discard(lease)
                self.dropped.discard(lease)

    def gone(self, lease):
        with self.lock:
            return lease in self.dropped

    def handle(self, offer, lease):
        if self.stopping.is_set() or not self.local_up.is_set():
            self.settle(lease, lambda: self.meta.release(lease), 'given back')
            return None
        deadline = time.time() + 600
        try:
            deadline = calendar.timegm(time.strptime(offer['deadline'][:19], '%Y-%m-%dT%H:%M:%S'))
        except (KeyError, ValueError):
            pass
        try:
            answer = forward_or_down(self.args, offer['article'], timeout=max(1, deadline - time.time()))
        except LocalDown as e:
            if not self.gone(lease):
                self.settle(lease, lambda: self.meta.release(lease), 'given back')
            self.local_down(str(e))
            return None
        except Exception as e:  # the team's server failed: report it with its message
            if self.gone(lease):
                return
            if self.stopping.is_set():
                self.settle(lease, lambda: self.meta.release(lease), 'given back')
                return None
            message = e.faultString if isinstance(e, xmlrpc.client.Fault) else str(e)
            self.settle(lease, lambda: self.meta.fail(lease, message), 'failed')
            return None
        if not self.gone(lease):  # a lease given back (at stop, or not renewed in time) is not answered
            want_next = not self.stopping.is_set() and self.local_up.is_set()
            receipt = self.settle(lease, lambda: self.meta.answer(lease, answer, want_next), 'stored')
            return (receipt or {}).get('next')

    def settle(self, lease, call, what):
        delay = 0
        for _ in range(8):
            try:
                result = call()
                self.count(what)
                return result
            except Refused as e:
                log('lease %s: %s' % (lease[:8], e))
                return
            except LinkDown as e:
                if self.stopping.is_set():
                    log('lease %s left to its deadline: %s' % (lease[:8], e))
                    return
                delay = self.backoff(delay)
                time.sleep(delay)

    def run(self):
        threads = [threading.Thread(target=self.loop, daemon=True) for _ in range(self.args.concurrency)]
        upto = 'up to %d lease(s) at once' % self.args.concurrency
        try:
            limit = self.meta.concurrency()
            if self.args.concurrency > limit:
                log("warning: --concurrency %d exceeds the server's registered concurrency %d: at most %d lease(s) are "
                    'held at once across all its agents; register the server with a higher "concurrency" or lower --concurrency'
                    % (self.args.concurrency, limit, limit))
                upto = "up to %d lease(s) at once (the server's registered concurrency; --concurrency %d)" % (
                    limit, self.args.concurrency)
        except Exception:
            pass  # the meta-server unreachable for now: the loops wait for it
        for t in threads:
            t.start()
        threading.Thread(target=self.renewer, daemon=True).start()
        log('agent for server %d at %s: forwarding to %s (%s), %s'
            % (self.args.server, self.args.url, self.args.forward, self.args.protocol, upto))
        while not self.stopping.is_set() and any(t.is_alive() for t in threads):
            self.stopping.wait(0.2)
        # Stopping: the articles still with your server are given back at once; a lease
        # request still waiting ends within --wait seconds (what it brings is given back).
        with self.lock:
            held, self.held = list(self.held), set()
            self.dropped.update(held)  # their answers, when they come, are not sent
        for lease in held:
            self.settle(lease, lambda lease=lease: self.meta.release(lease), 'given back')
        for t in threads:
            t.join(self.args.wait + 5)
        log('stopped: %d leased, %d answered, %d reported as failed, %d given back'
            % (self.counts['leased'], self.counts['stored'], self.counts['failed'], self.counts['given back']))


def main():
    p = argparse.ArgumentParser(description='Take the articles of a pull server on lease and answer them with your own annotation server.')
    p.add_argument('--url', default=os.environ.get('METASERVER_URL'),
                   help='the meta-server, e.g. https://meta.example.org (default METASERVER_URL)')
    p.add_argument('--token', default=os.environ.get('METASERVER_TOKEN'),
                   help='your team token (default METASERVER_TOKEN: a token on the command line is visible in ps)')
    p.add_argument('--server', required=True, type=int, help='the id of your server registered with protocol pull')
    p.add_argument('--forward', required=True, help='your annotation server, e.g. http://127.0.0.1:8000/RPC2')
    p.add_argument('--protocol', choices=['xmlrpc', 'json'], default='xmlrpc')
    p.add_argument('--method', default='Annotator.getAnnotation', help='XML-RPC method name')
    p.add_argument('--concurrency', type=int, default=1)
    p.add_argument('--wait', type=int, default=30, help='seconds each lease request waits for work (at most 60)')
    args = p.parse_args()
    if not args.url or not args.token:
        p.error('give the meta-server with --url (or METASERVER_URL) and your team token with --token (or METASERVER_TOKEN)')
    agent = Agent(args)

    def stop(signum, _frame):
        log('%s: giving back the leases held and stopping' % signal.Signals(signum).name)
        agent.stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    agent.run()


if __name__ == '__main__':
    main()
