package org.fjm2.admin;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * Renders the status page: the nodes, when each was last seen, how long ago the list changed. One self-contained
 * HTML document (inline style, no script, no external asset) that reloads itself and reads well on a phone: the
 * table turns into one card per node on narrow screens.
 */
final class StatusPage {

    /** Seconds between the page's reloads. */
    static final int REFRESH_SECONDS = 10;

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:1rem;\
            background:#f6f7f9;color:#1d2330}
            h1{font-size:1.4rem;margin:0 0 .25rem}
            .summary{color:#4a5263;margin:0 0 1rem}
            table{border-collapse:collapse;width:100%;background:#fff;box-shadow:0 1px 2px #0002}
            th,td{text-align:left;padding:.5rem .75rem;border-bottom:1px solid #e3e6eb;overflow-wrap:anywhere}
            th{background:#eef1f5;font-weight:600}
            .empty{padding:1rem;background:#fff}
            footer{color:#6b7385;font-size:.8rem;margin-top:1rem}
            @media (max-width:600px){thead{display:none}table,tbody,tr,td{display:block;width:auto}
            table{background:none;box-shadow:none}
            tr{margin-bottom:.75rem;border:1px solid #e3e6eb;background:#fff}td{border:none;padding:.25rem .75rem}
            td::before{content:attr(data-label)": ";font-weight:600}}
            """;

    private StatusPage() {
    }

    static String render(RegistrySnapshot snapshot, long now, long[] advertisements, long expired,
                         Map<Refusals.Reason, Long> refusals) {
        StringBuilder html = new StringBuilder(2048 + 256 * snapshot.nodes().size());
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
                .append("<title>FJM2-Admin: ").append(snapshot.nodes().size()).append(" node(s)</title>")
                .append("<style>").append(STYLE).append("</style></head><body>")
                .append("<h1>FJM2-Admin</h1><p class=\"summary\" id=\"summary\">")
                .append(snapshot.nodes().size()).append(" node(s) registered; the list changed ");
        if (snapshot.lastModified() == 0) {
            html.append("never");
        } else {
            html.append("<span id=\"changed\" title=\"").append(UTC.format(Instant.ofEpochMilli(snapshot.lastModified())))
                    .append("\">").append(ago(now - snapshot.lastModified())).append("</span>");
        }
        html.append(".</p>");
        if (snapshot.nodes().isEmpty()) {
            html.append("<p class=\"empty\">No FJM2D node is registered.</p>");
        } else {
            html.append("<table id=\"nodes\"><thead><tr><th>Node</th><th>Address</th><th>Last seen</th>")
                    .append("<th>Registered</th></tr></thead><tbody>");
            for (Node n : snapshot.nodes()) {
                html.append("<tr class=\"node\"><td data-label=\"Node\">").append(escape(n.id()))
                        .append("</td><td data-label=\"Address\">").append(escape(hostPort(n)))
                        .append("</td><td data-label=\"Last seen\" title=\"")
                        .append(UTC.format(Instant.ofEpochMilli(n.lastSeen()))).append("\">")
                        .append(ago(now - n.lastSeen()))
                        .append("</td><td data-label=\"Registered\">")
                        .append(UTC.format(Instant.ofEpochMilli(n.registered()))).append("</td></tr>");
            }
            html.append("</tbody></table>");
        }
        html.append("<footer>Advertisements sent: ").append(advertisements[0]).append(", failed: ")
                .append(advertisements[1]).append(". Nodes expired: ").append(expired)
                .append(". Requests refused: ").append(refusals.values().stream().mapToLong(Long::longValue).sum());
        String separator = " (";
        for (Map.Entry<Refusals.Reason, Long> r : refusals.entrySet()) {
            if (r.getValue() > 0) {
                html.append(separator).append(r.getKey().label()).append(' ').append(r.getValue());
                separator = ", ";
            }
        }
        html.append(separator.equals(", ") ? ")" : "")
                .append(". This page reloads every ").append(REFRESH_SECONDS).append(" s; ")
                .append(UTC.format(Instant.ofEpochMilli(now))).append(".</footer></body></html>");
        return html.toString();
    }

    /** "5 s ago", "3 min ago", "2 h ago", "4 d ago". */
    static String ago(long millis) {
        long s = Math.max(0, millis / 1000);
        if (s < 120) {
            return s + " s ago";
        }
        if (s < 7200) {
            return s / 60 + " min ago";
        }
        if (s < 172_800) {
            return s / 3600 + " h ago";
        }
        return s / 86_400 + " d ago";
    }

    private static String hostPort(Node n) {
        return n.host().indexOf(':') >= 0 ? "[" + n.host() + "]:" + n.port() : n.host() + ":" + n.port();
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
