#!/usr/bin/env python3
"""A pull agent for the metaserver, in plain Python (standard library only).

For a team whose annotation server the meta-server cannot reach (NAT, a campus firewall,
a GPU node of a cluster): register the server with protocol "pull" (no URL), run your
server as usual on your own network, and run this next to it. Only outbound HTTPS is used.
It does what `metaserver agent --forward` does:

  - takes articles on lease:   POST {url}/api/servers/{id}/leases?wait=30
                               -> 204 (no work yet) or 200 {lease, deadline, article:
                                  {id?, text, given?, tasks}}
  - hands each to your server in its protocol (xmlrpc: getAnnotation(text[, given][, meta]);
    json: POST {"text", "given"?, "article"?, "tasks"?}), and answers the lease with what
    came back:                 POST {url}/api/leases/{lease}/answer   (the answer as JSON)
  - a failing server is reported with its message:
                               POST {url}/api/leases/{lease}/fail     {"message": ...}
  - on Ctrl-C / SIGTERM the leases held are given back (not left to time out):
                               POST {url}/api/leases/{lease}/release
  - while the meta-server cannot be reached it tries again with a growing back-off.

Run:  python3 pull_agent.py --url https://meta.example.org --token TEAM_TOKEN --server 12 \\
          --forward http://127.0.0.1:8000/RPC2 [--protocol xmlrpc|json] [--method NAME] \\
          [--concurrency N] [--wait SECONDS]
"""
import argparse
import json
import random
import signal
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
            raise LinkDown('cannot reach the meta-server at %s: %s' % (self.url, e))

    def take(self, wait):
        status, body = self.post('/api/servers/%d/leases?wait=%d' % (self.server_id, wait), timeout=wait + 30)
        return body if status == 200 else None

    def answer(self, lease, answer):
        return self.post('/api/leases/%s/answer' % lease, answer)[1]

    def fail(self, lease, message):
        return self.post('/api/leases/%s/fail' % lease, {'message': message[:4000] or 'the server failed'})[1]

    def release(self, lease):
        self.post('/api/leases/%s/release' % lease)


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


class Agent:
    def __init__(self, args):
        self.args = args
        self.meta = MetaServer(args.url, args.token, args.server)
        self.stopping = threading.Event()
        self.counts = {'leased': 0, 'stored': 0, 'failed': 0, 'given back': 0}
        self.lock = threading.Lock()
        self.held = set()

    def count(self, what):
        with self.lock:
            self.counts[what] += 1

    def backoff(self, previous):
        return min(30.0, previous * 2 if previous else 0.5) * (0.75 + random.random() / 2)

    def loop(self):
        delay = 0
        while not self.stopping.is_set():
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
            if offer:
                self.work(offer)

    def work(self, offer):
        self.count('leased')
        lease = offer['lease']
        with self.lock:
            self.held.add(lease)
        try:
            self.handle(offer, lease)
        finally:
            with self.lock:
                self.held.discard(lease)

    def handle(self, offer, lease):
        if self.stopping.is_set():
            return self.settle(lease, lambda: self.meta.release(lease), 'given back')
        try:
            answer = forward(self.args, offer['article'], timeout=max(1, self.args.wait + 600))
        except Exception as e:  # the team's server failed: report it with its message
            if self.stopping.is_set():
                return self.settle(lease, lambda: self.meta.release(lease), 'given back')
            message = e.faultString if isinstance(e, xmlrpc.client.Fault) else str(e)
            return self.settle(lease, lambda: self.meta.fail(lease, message), 'failed')
        self.settle(lease, lambda: self.meta.answer(lease, answer), 'stored')

    def settle(self, lease, call, what):
        delay = 0
        for _ in range(8):
            try:
                call()
                self.count(what)
                return
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
        for t in threads:
            t.start()
        log('agent for server %d at %s: forwarding to %s (%s), up to %d lease(s) at once'
            % (self.args.server, self.args.url, self.args.forward, self.args.protocol, self.args.concurrency))
        while not self.stopping.is_set() and any(t.is_alive() for t in threads):
            self.stopping.wait(0.2)
        # Stopping: the articles still with your server are given back at once; a lease
        # request still waiting ends within --wait seconds (what it brings is given back).
        with self.lock:
            held, self.held = list(self.held), set()
        for lease in held:
            self.settle(lease, lambda lease=lease: self.meta.release(lease), 'given back')
        for t in threads:
            t.join(self.args.wait + 5)
        log('stopped: %d leased, %d answered, %d reported as failed, %d given back'
            % (self.counts['leased'], self.counts['stored'], self.counts['failed'], self.counts['given back']))


def main():
    p = argparse.ArgumentParser(description='Take the articles of a pull server on lease and answer them with your own annotation server.')
    p.add_argument('--url', required=True, help='the meta-server, e.g. https://meta.example.org')
    p.add_argument('--token', required=True, help='your team token')
    p.add_argument('--server', required=True, type=int, help='the id of your server registered with protocol pull')
    p.add_argument('--forward', required=True, help='your annotation server, e.g. http://127.0.0.1:8000/RPC2')
    p.add_argument('--protocol', choices=['xmlrpc', 'json'], default='xmlrpc')
    p.add_argument('--method', default='Annotator.getAnnotation', help='XML-RPC method name')
    p.add_argument('--concurrency', type=int, default=1)
    p.add_argument('--wait', type=int, default=30, help='seconds each lease request waits for work (at most 60)')
    args = p.parse_args()
    agent = Agent(args)

    def stop(signum, _frame):
        log('%s: giving back the leases held and stopping' % signal.Signals(signum).name)
        agent.stopping.set()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    agent.run()


if __name__ == '__main__':
    main()
