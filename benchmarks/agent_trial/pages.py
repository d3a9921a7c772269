"""The trial's web pages and the local server that records what a page sent.

The server answers GET with a page and records every POST (the form's fields as a browser
encodes them) as a JSON line in the task's folder: the check reads what the page received,
never what an agent says it typed.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CONTACT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Contact us</title></head><body>
<h1>Contact us</h1>
<form method="post" action="/submit">
<p><label>Name <input name="name"></label></p>
<p><label>Email <input name="email" type="email"></label></p>
<p><label>Topic <select name="topic"><option>Sales</option><option>Support</option><option>Billing</option>
</select></label></p>
<p><label>Message <textarea name="message" rows="4" cols="40"></textarea></label></p>
<p><label><input type="checkbox" name="newsletter" value="yes"> Subscribe to the newsletter</label></p>
<p><button type="submit">Send</button></p>
</form></body></html>
"""

CHECKOUT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Checkout</title>
<style>fieldset{margin:6px 0} label{margin-right:10px}</style></head><body>
<h1>Checkout</h1>
<form method="post" action="/submit">
<fieldset><legend>Shipping address</legend>
<label>Full name <input name="ship_name"></label>
<label>Street <input name="ship_street"></label>
<label>City <input name="ship_city"></label>
<label>Postcode <input name="ship_zip" size="8"></label>
<label>Country <select name="ship_country"><option value="">Choose…</option><option>France</option>
<option>Germany</option><option>Italy</option><option>Spain</option></select></label>
</fieldset>
<fieldset><legend>Billing address</legend>
<label><input type="checkbox" name="billing_same" value="yes" checked> Same as shipping</label>
<label>Full name <input name="bill_name"></label>
<label>Street <input name="bill_street"></label>
<label>City <input name="bill_city"></label>
<label>Postcode <input name="bill_zip" size="8"></label>
</fieldset>
<fieldset><legend>Delivery</legend>
<label><input type="radio" name="delivery" value="standard" checked> Standard (free)</label>
<label><input type="radio" name="delivery" value="express"> Express (9.90)</label>
<label><input type="radio" name="delivery" value="pickup"> Pick up in store</label>
<label><input type="checkbox" name="gift_wrap" value="yes"> Gift wrap</label>
<label>Gift message <textarea name="gift_message" rows="2" cols="30"></textarea></label>
</fieldset>
<fieldset><legend>Payment</legend>
<label>Coupon <input name="coupon" size="10"></label>
<label><input type="radio" name="payment" value="card" checked> Card</label>
<label><input type="radio" name="payment" value="invoice"> Invoice</label>
<label>Card number <input name="card_number" size="19"></label>
<label>Expiry <input name="card_expiry" size="5" placeholder="MM/YY"></label>
<label>CVC <input name="card_cvc" size="4"></label>
</fieldset>
<p><label><input type="checkbox" name="terms" value="yes"> I accept the terms</label>
<label><input type="checkbox" name="marketing" value="yes" checked> Send me offers</label></p>
<p><button type="submit">Place order</button></p>
</form></body></html>
"""

PAGES = {"/contact.html": CONTACT, "/checkout.html": CHECKOUT}
THANKS = "<!doctype html><html><head><title>Received</title></head><body><h1>Thank you</h1></body></html>"


class FormServer:
    """Serve PAGES on 127.0.0.1 (a free port) and append each POST's fields to `log`."""

    def __init__(self, log: Path) -> None:
        self.log = log
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                page = PAGES.get(self.path)
                self._send(200 if page else 404, page or "not found")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                fields = urllib.parse.parse_qs(
                    self.rfile.read(length).decode("utf-8", "replace"), keep_blank_values=True
                )
                with outer.log.open("a") as f:
                    f.write(json.dumps({"path": self.path, "fields": fields}) + "\n")
                self._send(200, THANKS)

            def _send(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, page: str) -> str:
        return f"http://127.0.0.1:{self.port}{page}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def received(log: Path) -> list[dict[str, list[str]]]:
    """Every form the server received, oldest first."""
    if not log.exists():
        return []
    return [json.loads(line)["fields"] for line in log.read_text().splitlines() if line.strip()]
