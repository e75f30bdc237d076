//! reports/index.html: one static page a person opens from disk (no server, no
//! network: its style, script and charts are inline) with every row, the peers
//! beside the engine, filters by language and corpus, sortable columns and the
//! charts. A pure function of the measurements, like the tables (D68).

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::charts::{
    coverage_error_canvas, family_heatmap_canvas, language_colour, peers_canvas,
    COVERAGE_ERROR_TITLE, HEATMAP_TITLE, PEERS_TITLE,
};
use crate::model::Measurements;
use crate::row_view::{floored_percent, view, RowView};
use crate::svg::escape;
use crate::tables::{language_family, percent};

/// A column: its heading, whether it sorts as numbers, and each row's text and the
/// value it sorts by (empty: no value, sorted last either way).
struct Column {
    heading: &'static str,
    numeric: bool,
    cell: fn(&RowView) -> (String, String),
}

fn ratio_cell(value: Option<f64>, text: String) -> (String, String) {
    (text, value.map(|v| format!("{v:.6}")).unwrap_or_default())
}

fn count_cell(value: Option<u64>) -> (String, String) {
    match value {
        Some(v) => (v.to_string(), v.to_string()),
        None => ("—".into(), String::new()),
    }
}

fn text_cell(text: &str) -> (String, String) {
    (text.to_string(), text.to_string())
}

const COLUMNS: &[Column] = &[
    Column {
        heading: "row",
        numeric: false,
        cell: |v| text_cell(&v.id),
    },
    Column {
        heading: "tool",
        numeric: false,
        cell: |v| text_cell(&v.tool),
    },
    Column {
        heading: "language",
        numeric: false,
        cell: |v| text_cell(language_family(&v.language)),
    },
    Column {
        heading: "corpus",
        numeric: false,
        cell: |v| text_cell(&v.corpus),
    },
    Column {
        heading: "oracle",
        numeric: false,
        cell: |v| text_cell(&v.oracle),
    },
    Column {
        heading: "judged sites",
        numeric: true,
        cell: |v| count_cell(v.sites.map(|s| s.judged_in_tree)),
    },
    Column {
        heading: "coverage",
        numeric: true,
        cell: |v| {
            let c = v.sites.and_then(|s| s.coverage);
            ratio_cell(c, percent(c))
        },
    },
    Column {
        heading: "precision",
        numeric: true,
        cell: |v| {
            let p = v.sites.and_then(|s| s.precision);
            ratio_cell(p, floored_percent(p))
        },
    },
    Column {
        heading: "wrong answers",
        numeric: true,
        cell: |v| count_cell(v.sites.map(|s| s.errors)),
    },
    Column {
        heading: "pair precision",
        numeric: true,
        cell: |v| ratio_cell(v.pair_precision, floored_percent(v.pair_precision)),
    },
    Column {
        heading: "pair recall",
        numeric: true,
        cell: |v| ratio_cell(v.pair_recall, percent(v.pair_recall)),
    },
    Column {
        heading: "wall s",
        numeric: true,
        cell: |v| match v.wall_ms {
            Some(ms) => (format!("{:.2}", ms as f64 / 1000.0), ms.to_string()),
            None => ("—".into(), String::new()),
        },
    },
    Column {
        heading: "peak RSS MiB",
        numeric: true,
        cell: |v| match v.peak_rss_kib {
            Some(k) => (format!("{:.0}", k as f64 / 1024.0), k.to_string()),
            None => ("—".into(), String::new()),
        },
    },
    Column {
        heading: "outcome",
        numeric: false,
        cell: |v| match &v.outcome {
            Some((token, _)) => text_cell(token),
            None => ("scored".into(), "scored".into()),
        },
    },
];

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;font-size:13px}\
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}\
td:nth-child(-n+5),th:nth-child(-n+5),td:last-child{text-align:left}\
th{background:#f3f3f3;cursor:pointer;user-select:none;position:sticky;top:0}\
th[aria-sort=ascending]::after{content:\" ▲\"}th[aria-sort=descending]::after{content:\" ▼\"}\
tr.peer td:first-child{padding-left:1.6em}tr.peer{background:#fff8ef}\
tr.failed td:last-child{color:#b00020}\
.tag{display:inline-block;width:.7em;height:.7em;margin-right:.3em;border-radius:50%}\
#filters{margin:1em 0}#filters label{margin-right:1.5em}\
figure{margin:2em 0;overflow-x:auto}figcaption{font-size:13px;color:#555}";

const SCRIPT: &str = r#"(function () {
  var table = document.getElementById("rows");
  var body = table.tBodies[0];
  var language = document.getElementById("language");
  var corpus = document.getElementById("corpus");
  var shown = document.getElementById("shown");
  function filter() {
    var n = 0;
    Array.prototype.forEach.call(body.rows, function (tr) {
      var keep = (!language.value || tr.dataset.language === language.value) &&
                 (!corpus.value || tr.dataset.corpus === corpus.value);
      tr.hidden = !keep;
      if (keep) { n += 1; }
    });
    shown.textContent = n + " of " + body.rows.length + " rows shown";
  }
  function sortBy(th, index) {
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var numeric = th.dataset.type === "number";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[index].dataset.value, y = b.cells[index].dataset.value;
      if (x === "" || y === "") { return (x === "") - (y === ""); }
      var c = numeric ? Number(x) - Number(y) : (x < y ? -1 : x > y ? 1 : 0);
      return ascending ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
    th.tabIndex = 0;
    th.addEventListener("click", function () { sortBy(th, index); });
    th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sortBy(th, index); } });
  });
  language.addEventListener("change", filter);
  corpus.addEventListener("change", filter);
  filter();
})();
"#;

fn options(out: &mut String, id: &str, label: &str, values: &BTreeSet<String>) {
    let _ = write!(
        out,
        "<label>{label} <select id=\"{id}\"><option value=\"\">all</option>"
    );
    for v in values {
        let v = escape(v);
        let _ = write!(out, "<option value=\"{v}\">{v}</option>");
    }
    out.push_str("</select></label>\n");
}

fn table_row(out: &mut String, v: &RowView) {
    let mut classes = Vec::new();
    if v.is_peer {
        classes.push("peer");
    }
    if v.outcome.is_some() {
        classes.push("failed");
    }
    let _ = write!(
        out,
        "<tr data-language=\"{}\" data-corpus=\"{}\" data-tool=\"{}\"",
        escape(language_family(&v.language)),
        escape(&v.corpus),
        escape(&v.tool)
    );
    if !classes.is_empty() {
        let _ = write!(out, " class=\"{}\"", classes.join(" "));
    }
    out.push('>');
    for (i, column) in COLUMNS.iter().enumerate() {
        let (text, value) = (column.cell)(v);
        let _ = write!(out, "<td data-value=\"{}\"", escape(&value));
        if let (Some((_, detail)), "outcome") = (&v.outcome, column.heading) {
            let _ = write!(out, " title=\"{}\"", escape(detail));
        }
        out.push('>');
        if i == 2 {
            let _ = write!(
                out,
                "<span class=\"tag\" style=\"background:{}\"></span>",
                language_colour(&v.language)
            );
        }
        let _ = write!(out, "{}</td>", escape(&text));
    }
    out.push_str("</tr>\n");
}

/// The page.
pub fn render_index(measurements: &Measurements) -> String {
    let views: Vec<RowView> = measurements.rows.iter().map(view).collect();
    let languages: BTreeSet<String> = views
        .iter()
        .map(|v| language_family(&v.language).to_string())
        .collect();
    let corpora: BTreeSet<String> = views.iter().map(|v| v.corpus.clone()).collect();
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<title>Call-graph measurements</title>\n");
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    out.push_str("<h1>Call-graph measurements</h1>\n");
    let _ = writeln!(
        out,
        "<p>Scored with <code>{}</code> (docs/PROTOCOL.md); written by <code>harness measure</code> from measurements.json: regenerate it, do not edit it. Each corpus's engine row comes first, its peers (other tools on the same truth, tinted) after it; click a heading to sort, again to reverse. Precision is floored to one decimal, so it never reads 100.0% while an answer was wrong.</p>",
        escape(&measurements.protocol)
    );
    out.push_str("<div id=\"filters\">\n");
    options(&mut out, "language", "Language", &languages);
    options(&mut out, "corpus", "Corpus", &corpora);
    out.push_str("<span id=\"shown\"></span>\n</div>\n");
    out.push_str("<table id=\"rows\">\n<thead><tr>");
    for column in COLUMNS {
        let kind = if column.numeric { "number" } else { "text" };
        let _ = write!(out, "<th data-type=\"{kind}\">{}</th>", column.heading);
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for v in &views {
        table_row(&mut out, v);
    }
    out.push_str("</tbody>\n</table>\n<h2>Charts</h2>\n");
    let charts = [
        (
            COVERAGE_ERROR_TITLE,
            "charts/coverage-error.svg",
            coverage_error_canvas(measurements),
        ),
        (PEERS_TITLE, "charts/peers.svg", peers_canvas(measurements)),
        (
            HEATMAP_TITLE,
            "charts/family-heatmap.svg",
            family_heatmap_canvas(measurements),
        ),
    ];
    for (title, file, canvas) in charts {
        let _ = write!(
            out,
            "<figure>\n{}<figcaption>{} ({file})</figcaption>\n</figure>\n",
            canvas.inline(title),
            escape(title)
        );
    }
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Row;

    fn rows() -> Measurements {
        let mut engine = Row {
            id: "tomlkit".into(),
            language: "python".into(),
            ..Row::default()
        };
        engine.engine.name = "callgraph".into();
        let mut peer = Row {
            id: "tomlkit@pyan3".into(),
            language: "python".into(),
            ..Row::default()
        };
        peer.engine.name = "pyan3".into();
        Measurements::new(vec![peer, engine])
    }

    #[test]
    fn the_page_loads_nothing_from_anywhere() {
        let page = render_index(&rows());
        for needle in ["http:", "https:", "src=", "href=", "@import", "url("] {
            assert!(
                !page.contains(needle),
                "the page refers outside itself: {needle}"
            );
        }
    }

    #[test]
    fn the_peer_follows_its_engine_row_and_is_marked() {
        let page = render_index(&rows());
        let engine = page.find("data-tool=\"callgraph\"").unwrap();
        let peer = page.find("data-tool=\"pyan3\" class=\"peer\"").unwrap();
        assert!(engine < peer);
        assert_eq!(page, render_index(&rows()), "deterministic");
    }
}
