"""One static HTTP server per kernel, on 127.0.0.1 and a port of its own, serving this package's
copy of the built page to every widget the kernel shows: the browser fetches the wasm once."""
from __future__ import annotations

import http.server
import json
import os
import secrets
import threading
from pathlib import Path

_lock = threading.Lock()
_base: str | None = None


def page_folder() -> Path:
    """The built page: ATTENTION_EXPLORER_PAGE, else the copy in this package."""
    folder = Path(os.environ.get("ATTENTION_EXPLORER_PAGE") or Path(__file__).resolve().parent / "page")
    if not (folder / "index.html").is_file():
        raise RuntimeError(
            f"{folder} holds no built page: install the package from the repository after "
            "building the page (see the README's notebook set-up)"
        )
    return folder


def named_by_content(folder: Path) -> frozenset[str]:
    """The build's files whose names change with their content (build.json's lists but the page,
    the service worker, the teachers' files and the trained models'): cached for good."""
    built = json.loads((folder / "build.json").read_text())
    return frozenset(f"/{name}" for role in ("first", "later", "embeds", "language") for name in built.get(role, []))


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".css": "text/css",
                      ".json": "application/json"}
    prefix = "/"
    folder = "."
    immutable: frozenset[str] = frozenset()
    csp = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=self.folder, **kwargs)

    def log_message(self, *args):
        # The default writes each request to stderr, which the kernel shows in the running cell.
        pass

    def _inside(self) -> bool:
        # Only /<token>/… answers: another local user cannot guess the address. No service worker
        # on a kernel's throwaway origin.
        if not self.path.startswith(self.prefix) or self.path.split("?")[0].endswith("/sw.js"):
            self.send_error(404)
            return False
        self.path = "/" + self.path[len(self.prefix):].lstrip("/")
        if self.path.split("?")[0] == "/":
            self.path = "/index.html" + self.path[1:]
        return True

    def send_head(self):
        # Files only: no listings, and no redirect of a folder (it would drop the token).
        if os.path.isdir(self.translate_path(self.path)):
            self.send_error(404)
            return None
        return super().send_head()

    def do_GET(self):
        if self._inside():
            super().do_GET()

    def do_HEAD(self):
        if self._inside():
            super().do_HEAD()

    def end_headers(self):
        # As GitHub Pages sends: a sandboxed frame fetches the app cross-origin.
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        # Hashed names never change; index.html may, with a new install.
        hashed = self.path.split("?")[0] in self.immutable
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if hashed else "no-cache")
        super().end_headers()


def base_url() -> str:
    """http://127.0.0.1:PORT/TOKEN/ of this kernel's server, started on the first call."""
    global _base
    with _lock:
        if _base is None:
            prefix = f"/{secrets.token_urlsafe(12)}/"
            folder = page_folder()
            # The policy docs/teachers.md asks hosts to send, as the build wrote it.
            csp = json.loads((folder / "contract.json").read_text())["csp"]
            handler = type("Handler", (_Handler,), {"prefix": prefix, "folder": str(folder),
                                                    "immutable": named_by_content(folder), "csp": csp})
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, name="attention-explorer-files", daemon=True).start()
            _base = f"http://127.0.0.1:{server.server_address[1]}{prefix}"
        return _base
