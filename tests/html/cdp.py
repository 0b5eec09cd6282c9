#!/usr/bin/env python3
"""Open a page in headless Chromium over the DevTools protocol (stdlib only:
a WebSocket client of its own) and say what the page did.

usage: cdp.py CHROMIUM PAGE.html OUT.json [--dom DOM.html] [--keys KEY,KEY...]
                  [--width PX] [--pairs] [--boxes SEL;SEL...]

OUT.json: {"requests": [urls other than the page], "console": [messages of
level error or warning, exceptions, log entries of level error],
"render_ms": the page's script drawing it, "painted_ms": from navigation to
the first frame after that, "load_ms": navigation to ready as seen from here,
"ready": whether the page said it is drawn, "keys": with --keys, after
each key pressed (Tab, ArrowRight, ...), the focused element: its tag,
class, data-path, data-offset, outline width, and the tip's text, "pairs":
with --pairs, for each side-by-side pair of layouts (.hm-pair) and each of
its sides, the getBoundingClientRect() of the side and of its member table,
and the side's computed overflow-x, "boxes": with --boxes, for each CSS
selector the getBoundingClientRect() [left, top, right, bottom] of every
element it matches that takes room on the page}.  --width sets the
window's width (default 1280).  --pairs and --boxes first scroll to the end
so that every lazily drawn section is there.
"""
import base64, json, os, shutil, socket, struct, subprocess, sys, tempfile, time
import urllib.request


class WS:
    """The client side of RFC 6455, as much as CDP needs: text frames."""

    def __init__(self, url):
        assert url.startswith("ws://")
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.split(":")
        self.s = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key))
        self.s.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            c = self.s.recv(1)
            if not c:
                raise RuntimeError("websocket handshake: connection closed")
            head += c
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake: %r" % head[:80])
        self.buf = b""

    def send(self, text):
        data = text.encode()
        hdr = bytes([0x81])
        n = len(data)
        if n < 126:
            hdr += bytes([0x80 | n])
        elif n < 65536:
            hdr += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            hdr += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            c = self.s.recv(65536)
            if not c:
                raise RuntimeError("websocket: connection closed")
            self.buf += c
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0F
            if op in (0x8,):
                raise RuntimeError("websocket closed by the browser")
            if op in (0x9, 0xA):
                continue
            msg += payload
            if b0 & 0x80:
                return msg.decode()


def main():
    chromium, page, out = sys.argv[1:4]
    dom = sys.argv[sys.argv.index("--dom") + 1] if "--dom" in sys.argv else None
    keys = sys.argv[sys.argv.index("--keys") + 1].split(",") if "--keys" in sys.argv else []
    width = int(sys.argv[sys.argv.index("--width") + 1]) if "--width" in sys.argv else 1280
    prof = tempfile.mkdtemp(prefix="hitmap-chromium.")
    url = "file://" + os.path.abspath(page)
    proc = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                             "--no-first-run", "--no-default-browser-check",
                             "--disable-background-networking", "--disable-component-update",
                             "--disable-sync", "--window-size=%d,1024" % width,
                             "--user-data-dir=" + prof, "--remote-debugging-port=0",
                             "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(prof, "DevToolsActivePort")
        for _ in range(600):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.1)
        else:
            sys.exit("chromium did not start its DevTools endpoint")
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        ws = WS([t for t in targets if t["type"] == "page"][0]["webSocketDebuggerUrl"])
        ids = [0]
        events = []

        def call(method, **params):
            ids[0] += 1
            ws.send(json.dumps({"id": ids[0], "method": method, "params": params}))
            while True:
                m = json.loads(ws.recv())
                if m.get("id") == ids[0]:
                    if "error" in m:
                        raise RuntimeError("%s: %s" % (method, m["error"]))
                    return m.get("result", {})
                events.append(m)

        for d in ("Network", "Runtime", "Log", "Page"):
            call(d + ".enable")
        t0 = time.time()
        call("Page.navigate", url=url)
        ready = False
        for _ in range(1200):
            r = call("Runtime.evaluate", expression="document.body && document.body.dataset.ready",
                     returnByValue=True)
            if r.get("result", {}).get("value") == "1":
                ready = True
                break
            time.sleep(0.05)
        load_ms = (time.time() - t0) * 1000
        for _ in range(200):
            r = call("Runtime.evaluate", expression="document.body.dataset.paintedMs",
                     returnByValue=True)
            painted_ms = r.get("result", {}).get("value")
            if painted_ms:
                break
            time.sleep(0.05)
        r = call("Runtime.evaluate", expression="document.body.dataset.renderMs", returnByValue=True)
        render_ms = r.get("result", {}).get("value")
        time.sleep(0.3)		# late errors (a lazy section drawn on a timer) still land
        call("Runtime.evaluate", expression="1")
        pressed = []
        codes = {"Tab": 9, "Enter": 13, "Escape": 27, "ArrowLeft": 37, "ArrowUp": 38,
                 "ArrowRight": 39, "ArrowDown": 40, "Home": 36, "End": 35}
        probe = ("(function(){var e=document.activeElement,t=document.getElementById('hm-tip');"
                 "return JSON.stringify({tag:e.tagName,cls:e.className,path:e.getAttribute('data-path'),"
                 "offset:e.getAttribute('data-offset'),outline:getComputedStyle(e).outlineWidth,"
                 "tip:t&&!t.hidden?t.textContent:null});})()")
        for k in keys:
            for kind in ("keyDown", "keyUp"):
                call("Input.dispatchKeyEvent", type=kind, key=k, code=k,
                     windowsVirtualKeyCode=codes[k], nativeVirtualKeyCode=codes[k])
            r = call("Runtime.evaluate", expression=probe, returnByValue=True)
            pressed.append(dict(json.loads(r["result"]["value"]), key=k))
        boxes = []
        if "--pairs" in sys.argv or "--boxes" in sys.argv:
            # every lazy section drawn first: scroll to the end and back
            call("Runtime.evaluate", expression="window.scrollTo(0, document.body.scrollHeight)")
            time.sleep(0.5)
        sels = {}
        if "--boxes" in sys.argv:
            for sel in sys.argv[sys.argv.index("--boxes") + 1].split(";"):
                js = ("JSON.stringify(Array.prototype.map.call(document.querySelectorAll(%s),"
                      "function(e){var b=e.getBoundingClientRect();"
                      "return [b.left,b.top+scrollY,b.right,b.bottom+scrollY];})"
                      ".filter(function(b){return b[2]>b[0]&&b[3]>b[1];}))" % json.dumps(sel))
                r = call("Runtime.evaluate", expression=js, returnByValue=True)
                sels[sel] = json.loads(r["result"]["value"])
        if "--pairs" in sys.argv:
            js = ("JSON.stringify(Array.prototype.map.call(document.querySelectorAll('.hm-pair'),"
                  "function(p){return Array.prototype.map.call(p.children,function(d){"
                  "var r=function(e){if(!e)return null;var b=e.getBoundingClientRect();"
                  "return [b.left,b.top,b.right,b.bottom];};"
                  "return {side:d.getAttribute('data-side'),box:r(d),"
                  "table:r(d.querySelector('table')),overflow:getComputedStyle(d).overflowX};});}))")
            r = call("Runtime.evaluate", expression=js, returnByValue=True)
            boxes = json.loads(r["result"]["value"])
        if dom:
            r = call("Runtime.evaluate", expression="document.documentElement.outerHTML",
                     returnByValue=True)
            open(dom, "w").write(r["result"]["value"])
        res = {"requests": [], "console": [], "ready": ready, "load_ms": round(load_ms),
               "render_ms": int(render_ms) if render_ms else None,
               "painted_ms": int(painted_ms) if painted_ms else None, "keys": pressed,
               "pairs": boxes, "boxes": sels}
        for e in events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Network.requestWillBeSent" and p["request"]["url"] != url:
                res["requests"].append(p["request"]["url"])
            elif m == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning", "assert"):
                res["console"].append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description"))) for a in p["args"])))
            elif m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                res["console"].append("exception: %s" % d.get("exception", {}).get(
                    "description", d.get("text")))
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                res["console"].append("log %s: %s" % (p["entry"]["level"], p["entry"]["text"]))
        json.dump(res, open(out, "w"), indent=1)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(prof, ignore_errors=True)


if __name__ == "__main__":
    main()
