# Varnish in front of an express-kernel API whose purger is VarnishXKeyPurger (README: "HTTP cache").
# Responses are cached by their Cache-Control (s-maxage first) and indexed by vmod xkey on the
# `xkey` header the API sends (the IRIs each response contains); a write makes the API send
#   PURGE / HTTP/1.1
#   xkey: /api/books/3 /api/books /api/authors/1
# and every cached response tagged with one of those IRIs is dropped.
# Needs Debian's varnish and varnish-modules (vmod xkey). The backend below is the API's address:
# tests/helpers/varnish.ts replaces 127.0.0.1 and 8000 with the test's server.
vcl 4.1;

import xkey;

backend default {
  .host = "127.0.0.1";
  .port = "8000";
}

# Who may purge: the API's own host. Add the addresses of the API's servers.
acl purgers {
  "127.0.0.1";
  "::1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purgers) {
      return (synth(403, "Forbidden"));
    }
    if (!req.http.xkey) {
      return (synth(400, "An xkey header is required"));
    }
    set req.http.n-gone = xkey.purge(req.http.xkey);
    return (synth(200, "Invalidated " + req.http.n-gone + " objects"));
  }
}

sub vcl_deliver {
  # Whether this answer came from the cache; Age and X-Varnish (two ids on a hit) say it too.
  if (obj.hits > 0) {
    set resp.http.X-Cache = "HIT";
  } else {
    set resp.http.X-Cache = "MISS";
  }
  # The tags are for this cache only.
  unset resp.http.xkey;
}
