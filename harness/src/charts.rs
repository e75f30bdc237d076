//! Hand-written SVG charts, drawn for reading (D68): coverage against the error rate
//! (1 − precision) on a log axis, every label where it meets no other text; a
//! family × corpus heat map; per corpus, the engine beside its peers. Deterministic
//! text (fixed decimals, rows in id order), so charts diff cleanly and a merge renders
//! them byte-identically.

use std::collections::BTreeMap;

use crate::families::FAMILIES;
use crate::figures::FamilyFigures;
use crate::model::{Measurements, Row};
use crate::row_view::{floored_percent, view, RowView, SiteView};
use crate::svg::{place_labels, text_width, Anchor, Canvas, Rect};
use crate::tables::{language_family, percent};

/// One colour per language (the scatter's points, the page's language tags).
pub fn language_colour(language: &str) -> &'static str {
    match language_family(language) {
        "ada" => "#8c564b",
        "c" => "#7f7f7f",
        "cpp" => "#e377c2",
        "csharp" => "#9467bd",
        "go" => "#17becf",
        "java" => "#d62728",
        "javascript" => "#bcbd22",
        "kotlin" => "#ff7f0e",
        "python" => "#1f77b4",
        "rust" => "#2ca02c",
        "typescript" => "#3b5bdb",
        _ => "#444444",
    }
}

/// Decade tick labels: 10^k as a percentage (`0.01%`, `1%`, `100%`).
fn decade_label(exponent: i32) -> String {
    let percent = 10f64.powi(exponent + 2);
    match exponent + 2 {
        e if e >= 0 => format!("{percent:.0}%"),
        e => format!("{percent:.*}%", (-e) as usize),
    }
}

const SCATTER_W: f64 = 980.0;
const SCATTER_H: f64 = 660.0;
const PLOT_LEFT: f64 = 80.0;
const PLOT_TOP: f64 = 70.0;
const PLOT_RIGHT: f64 = 770.0;
const PLOT_BOTTOM: f64 = 560.0;
const LABEL_SIZE: f64 = 10.0;

/// A point of the scatter: a scored row with sites, coverage and judged answers.
struct ScatterPoint {
    view: RowView,
    coverage: f64,
    sites: SiteView,
}

fn scatter_points(measurements: &Measurements) -> Vec<ScatterPoint> {
    measurements
        .rows
        .iter()
        .map(view)
        .filter(|v| !v.is_proof)
        .filter_map(|v| {
            let sites = v.sites?;
            let coverage = sites.coverage?;
            (sites.judged_answers > 0).then_some(ScatterPoint {
                view: v,
                coverage,
                sites,
            })
        })
        .collect()
}

/// Where a row sits on the log axis: its error rate, or for no wrong answer the
/// floor 1/judged (the rate is below it).
fn plotted_rate(sites: &SiteView) -> f64 {
    match sites.errors {
        0 => 1.0 / sites.judged_answers as f64,
        e => e as f64 / sites.judged_answers as f64,
    }
}

/// Coverage (x) against the error rate (y, log), one labelled point per scored row
/// of a real corpus (proof rows are in the shape matrix), peers' site rows as squares.
pub fn coverage_error_canvas(measurements: &Measurements) -> Canvas {
    let points = scatter_points(measurements);
    let lowest = points
        .iter()
        .map(|p| plotted_rate(&p.sites).log10().floor() as i32)
        .min()
        .unwrap_or(-4)
        .min(-1);
    let x_of = |v: f64| PLOT_LEFT + v * (PLOT_RIGHT - PLOT_LEFT);
    let y_of = |rate: f64| {
        let share = (rate.log10() - f64::from(lowest)) / f64::from(-lowest);
        PLOT_BOTTOM - share * (PLOT_BOTTOM - PLOT_TOP)
    };
    let located: Vec<(f64, f64, String)> = points
        .iter()
        .map(|p| {
            (
                x_of(p.coverage),
                y_of(plotted_rate(&p.sites)),
                p.view.id.clone(),
            )
        })
        .collect();
    let bounds = Rect::new(
        PLOT_LEFT,
        PLOT_TOP,
        PLOT_RIGHT - PLOT_LEFT,
        PLOT_BOTTOM - PLOT_TOP,
    );
    let overflow = Rect::new(
        PLOT_RIGHT + 14.0,
        PLOT_TOP,
        SCATTER_W - PLOT_RIGHT - 20.0,
        f64::MAX,
    );
    let places = place_labels(&located, 5.0, LABEL_SIZE, bounds, overflow, &[]);
    // The overflow column grows the chart down and right as its labels need.
    let lowest_label = places.iter().map(|p| p.rect.bottom()).fold(0.0, f64::max);
    let widest_label = places.iter().map(|p| p.rect.right()).fold(0.0, f64::max);
    let height = SCATTER_H.max(lowest_label + 20.0);
    let width = SCATTER_W.max(widest_label + 10.0);
    let mut canvas = Canvas::new(width, height);
    canvas.text(
        width / 2.0,
        26.0,
        Anchor::Middle,
        16.0,
        "Coverage × error rate per corpus",
    );
    canvas.text(
        width / 2.0,
        46.0,
        Anchor::Middle,
        11.0,
        "error rate = 1 − precision, log axis; better is right and low",
    );
    draw_scatter_axes(&mut canvas, lowest, &x_of, &y_of);
    for (point, (x, y, _)) in points.iter().zip(&located) {
        draw_point(&mut canvas, point, *x, *y);
    }
    for (place, (x, y, text)) in places.iter().zip(&located) {
        if place.leader {
            let (lx, ly) = nearest_on(&place.rect, *x, *y);
            canvas.line(*x, *y, lx, ly, "#b0b0b0");
        }
        canvas.text(place.x, place.y, place.anchor, LABEL_SIZE, text);
    }
    draw_scatter_legend(&mut canvas, &points, height);
    canvas
}

/// The point of `r` nearest to (`x`, `y`): where a leader line meets its label.
fn nearest_on(r: &Rect, x: f64, y: f64) -> (f64, f64) {
    (x.clamp(r.x, r.right()), y.clamp(r.y, r.bottom()))
}

fn draw_scatter_axes(
    canvas: &mut Canvas,
    lowest: i32,
    x_of: &dyn Fn(f64) -> f64,
    y_of: &dyn Fn(f64) -> f64,
) {
    for tick in 0..=10 {
        let v = f64::from(tick) / 10.0;
        canvas.line(x_of(v), PLOT_TOP, x_of(v), PLOT_BOTTOM, "#e6e6e6");
        if tick % 2 == 0 {
            let label = format!("{}%", tick * 10);
            canvas.text(x_of(v), PLOT_BOTTOM + 16.0, Anchor::Middle, 11.0, &label);
        }
    }
    for exponent in lowest..=0 {
        let y = y_of(10f64.powi(exponent));
        canvas.line(PLOT_LEFT, y, PLOT_RIGHT, y, "#d0d0d0");
        canvas.text(
            PLOT_LEFT - 6.0,
            y + 4.0,
            Anchor::End,
            11.0,
            &decade_label(exponent),
        );
    }
    canvas.push(&format!(
        "<rect x=\"{PLOT_LEFT:.1}\" y=\"{PLOT_TOP:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#999999\"/>",
        PLOT_RIGHT - PLOT_LEFT,
        PLOT_BOTTOM - PLOT_TOP
    ));
    canvas.text(
        (PLOT_LEFT + PLOT_RIGHT) / 2.0,
        PLOT_BOTTOM + 34.0,
        Anchor::Middle,
        12.0,
        "coverage (right / judged in-tree sites)",
    );
    canvas.vertical_text(
        20.0,
        (PLOT_TOP + PLOT_BOTTOM) / 2.0,
        12.0,
        "error rate (wrong / judged answers)",
    );
}

fn draw_point(canvas: &mut Canvas, point: &ScatterPoint, x: f64, y: f64) {
    let colour = language_colour(&point.view.language);
    let fill = if point.sites.errors == 0 {
        "white"
    } else {
        colour
    };
    let title = format!(
        "{}: coverage {}, precision {} ({} wrong of {} judged answers)",
        point.view.id,
        percent(point.sites.coverage),
        floored_percent(point.sites.precision),
        point.sites.errors,
        point.sites.judged_answers
    );
    let title = crate::svg::escape(&title);
    let shape = match point.view.is_peer {
        true => format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\" fill=\"{fill}\" stroke=\"{colour}\" stroke-width=\"2\"><title>{title}</title></rect>",
            x - 4.5,
            y - 4.5
        ),
        false => format!(
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"{fill}\" stroke=\"{colour}\" stroke-width=\"2\"><title>{title}</title></circle>"
        ),
    };
    canvas.push(&shape);
}

/// The legend under the plot: the 0-error floor, the shapes, the languages present.
fn draw_scatter_legend(canvas: &mut Canvas, points: &[ScatterPoint], height: f64) {
    let y = (PLOT_BOTTOM + 58.0).min(height - 40.0);
    canvas.text(
        PLOT_LEFT,
        y,
        Anchor::Start,
        11.0,
        "hollow: no wrong answer among n judged, drawn at 1/n (the rate is < 1/n); filled: the rate itself; square: a peer tool",
    );
    let mut languages: Vec<&str> = points
        .iter()
        .map(|p| language_family(&p.view.language))
        .collect();
    languages.sort_unstable();
    languages.dedup();
    let mut x = PLOT_LEFT;
    for language in languages {
        canvas.push(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{}\"/>",
            x + 5.0,
            y + 16.0,
            language_colour(language)
        ));
        let r = canvas.text(x + 13.0, y + 20.0, Anchor::Start, 11.0, language);
        x = r.right() + 14.0;
    }
}

pub const COVERAGE_ERROR_TITLE: &str = "Coverage × error rate per corpus";

pub fn coverage_error(measurements: &Measurements) -> String {
    coverage_error_canvas(measurements).finish(COVERAGE_ERROR_TITLE)
}

pub const HEATMAP_TITLE: &str = "Families × corpora";

const CELL_W: f64 = 64.0;
const CELL_H: f64 = 30.0;

/// The engine's rows with families, grouped by language (proofs after corpora).
fn heat_rows(measurements: &Measurements) -> Vec<(&Row, RowView)> {
    let mut rows: Vec<(&Row, RowView)> = measurements
        .rows
        .iter()
        .filter(|r| !r.families.is_empty())
        .map(|r| (r, view(r)))
        .filter(|(_, v)| !v.is_peer)
        .collect();
    rows.sort_by(|(_, a), (_, b)| {
        (language_family(&a.language), a.is_proof, &a.id).cmp(&(
            language_family(&b.language),
            b.is_proof,
            &b.id,
        ))
    });
    rows
}

/// Families the rows use, in DESIGN order, then any other by name.
fn heat_families(rows: &[(&Row, RowView)]) -> Vec<String> {
    let present: std::collections::BTreeSet<&str> = rows
        .iter()
        .flat_map(|(r, _)| r.families.keys().map(String::as_str))
        .collect();
    let mut ordered: Vec<String> = FAMILIES
        .iter()
        .filter(|f| present.contains(*f))
        .map(|f| f.to_string())
        .collect();
    ordered.extend(
        present
            .iter()
            .filter(|f| !FAMILIES.contains(f))
            .map(|f| f.to_string()),
    );
    ordered
}

/// The colour classes of a cell, by its wrong share among its judged answers.
const HEAT_CLASSES: &[(&str, &str)] = &[
    ("#f2f2f2", "none judged"),
    ("#8fd19e", "0 wrong"),
    ("#d9f0d3", "< 0.1% wrong"),
    ("#fee08b", "< 1% wrong"),
    ("#fdae61", "< 5% wrong"),
    ("#f46d43", "≥ 5% wrong"),
];

fn heat_class(f: &FamilyFigures) -> usize {
    let judged = f.right + f.wrong;
    let rate = f.wrong as f64 / judged.max(1) as f64;
    match (judged, f.wrong) {
        (0, _) => 0,
        (_, 0) => 1,
        _ if rate < 0.001 => 2,
        _ if rate < 0.01 => 3,
        _ if rate < 0.05 => 4,
        _ => 5,
    }
}

/// Family (column) × engine row (line): each cell its answers and its precision,
/// coloured by the share of wrong answers.
pub fn family_heatmap_canvas(measurements: &Measurements) -> Canvas {
    let rows = heat_rows(measurements);
    let families = heat_families(&rows);
    let labels: Vec<String> = rows
        .iter()
        .map(|(_, v)| format!("{} · {}", language_family(&v.language), v.id))
        .collect();
    let label_w = labels
        .iter()
        .map(|l| text_width(l, 11.0))
        .fold(80.0, f64::max)
        + 20.0;
    let header_h = families
        .iter()
        .map(|f| text_width(f, 11.0))
        .fold(60.0, f64::max)
        + 16.0;
    let legend_w: f64 = HEAT_CLASSES
        .iter()
        .map(|(_, name)| 32.0 + text_width(name, 11.0))
        .sum();
    let top = 60.0 + header_h;
    let width = (label_w + CELL_W * families.len() as f64)
        .max(label_w + legend_w)
        .max(700.0)
        + 20.0;
    let height = top + CELL_H * rows.len() as f64 + 70.0;
    let mut canvas = Canvas::new(width, height);
    canvas.text(width / 2.0, 26.0, Anchor::Middle, 16.0, HEATMAP_TITLE);
    canvas.text(
        width / 2.0,
        46.0,
        Anchor::Middle,
        11.0,
        "each cell: the family's answers on the row, and their precision",
    );
    for (i, family) in families.iter().enumerate() {
        let cx = label_w + CELL_W * (i as f64 + 0.5);
        let w = text_width(family, 11.0);
        canvas.vertical_text(cx, top - 8.0 - w / 2.0, 11.0, family);
    }
    for (line, ((row, v), label)) in rows.iter().zip(&labels).enumerate() {
        let y = top + CELL_H * line as f64;
        canvas.text(label_w - 8.0, y + 19.0, Anchor::End, 11.0, label);
        for (i, family) in families.iter().enumerate() {
            let cell = Rect::new(label_w + CELL_W * i as f64, y, CELL_W - 2.0, CELL_H - 2.0);
            match row.families.get(family) {
                Some(f) => draw_heat_cell(&mut canvas, cell, f, &v.id, family),
                None => canvas.rect(cell, "#fbfbfb", ""),
            }
        }
    }
    let legend_y = top + CELL_H * rows.len() as f64 + 30.0;
    let mut x = label_w;
    for (colour, name) in HEAT_CLASSES {
        canvas.rect(Rect::new(x, legend_y - 10.0, 14.0, 12.0), colour, "");
        let r = canvas.text(x + 18.0, legend_y, Anchor::Start, 11.0, name);
        x = r.right() + 14.0;
    }
    canvas
}

fn draw_heat_cell(canvas: &mut Canvas, cell: Rect, f: &FamilyFigures, id: &str, family: &str) {
    let (colour, _) = HEAT_CLASSES[heat_class(f)];
    let title = format!(
        "{family} on {id}: {} answers, {} right, {} wrong, precision {}",
        f.answers,
        f.right,
        f.wrong,
        floored_percent(f.precision)
    );
    canvas.rect(cell, colour, &title);
    let cx = cell.x + cell.w / 2.0;
    canvas.text(
        cx,
        cell.y + 12.0,
        Anchor::Middle,
        10.0,
        &f.answers.to_string(),
    );
    canvas.text(
        cx,
        cell.y + 24.0,
        Anchor::Middle,
        10.0,
        &floored_percent(f.precision),
    );
}

pub fn family_heatmap(measurements: &Measurements) -> String {
    family_heatmap_canvas(measurements).finish(HEATMAP_TITLE)
}

/// Each corpus with peers: its engine row first, then its peers' rows in id order.
pub fn peer_groups(measurements: &Measurements) -> Vec<(String, Vec<RowView>)> {
    let mut peers: BTreeMap<String, Vec<RowView>> = BTreeMap::new();
    for row in &measurements.rows {
        let v = view(row);
        if v.is_peer {
            peers.entry(v.corpus.clone()).or_default().push(v);
        }
    }
    peers
        .into_iter()
        .map(|(corpus, tools)| {
            let engine = measurements.row(&corpus).map(view);
            (corpus, engine.into_iter().chain(tools).collect())
        })
        .collect()
}

pub const PEERS_TITLE: &str = "The engine beside its peers";

const METRIC_W: f64 = 150.0;
const BAR_W: f64 = 96.0;
const TOOL_H: f64 = 22.0;
const METRICS: &[&str] = &[
    "site coverage",
    "site precision",
    "pair recall",
    "pair precision",
];
/// The time axis: 10 ms to 1000 s, one decade per tick.
const TIME_DECADES: (i32, i32) = (1, 6);

/// Per corpus with peers: each tool's site coverage and precision, pair recall and
/// precision (bars, 0–100 %) and wall time (a log axis), measured in the same run.
pub fn peers_canvas(measurements: &Measurements) -> Canvas {
    let groups = peer_groups(measurements);
    let tool_w = groups
        .iter()
        .flat_map(|(_, tools)| tools.iter().map(tool_name))
        .map(|name| text_width(&name, 11.0))
        .fold(150.0, f64::max)
        + 20.0;
    let width = tool_w + METRIC_W * 5.0 + 80.0;
    let panel_h = |tools: usize| 44.0 + TOOL_H * tools as f64 + 16.0;
    let body: f64 = groups.iter().map(|(_, t)| panel_h(t.len())).sum();
    let height = 70.0 + body.max(40.0) + 20.0;
    let mut canvas = Canvas::new(width, height);
    canvas.text(width / 2.0, 26.0, Anchor::Middle, 16.0, PEERS_TITLE);
    canvas.text(
        width / 2.0,
        46.0,
        Anchor::Middle,
        11.0,
        "same truth, same run: bars 0–100 %; wall time on a log axis (10 ms – 1000 s)",
    );
    if groups.is_empty() {
        canvas.text(
            width / 2.0,
            90.0,
            Anchor::Middle,
            12.0,
            "no peer rows (harness measure --peers writes them)",
        );
    }
    let mut y = 70.0;
    for (corpus, tools) in &groups {
        draw_peer_panel(&mut canvas, tool_w, y, corpus, tools);
        y += panel_h(tools.len());
    }
    canvas
}

/// The engine's line is named as such; a peer's by its row id's tool.
fn tool_name(tool: &RowView) -> String {
    match tool.is_peer {
        true => tool.tool.clone(),
        false => "engine (callgraph)".to_string(),
    }
}

fn draw_peer_panel(canvas: &mut Canvas, tool_w: f64, top: f64, corpus: &str, tools: &[RowView]) {
    canvas.styled_text(
        10.0,
        top + 14.0,
        Anchor::Start,
        13.0,
        "font-weight=\"bold\"",
        corpus,
    );
    for (i, metric) in METRICS.iter().chain(&["wall time (log)"]).enumerate() {
        let x = tool_w + METRIC_W * i as f64;
        canvas.text(x, top + 34.0, Anchor::Start, 10.0, metric);
    }
    for (line, tool) in tools.iter().enumerate() {
        let y = top + 44.0 + TOOL_H * line as f64;
        canvas.text(tool_w - 8.0, y + 14.0, Anchor::End, 11.0, &tool_name(tool));
        if let Some((_, said)) = &tool.outcome {
            let text = shortened(said, 110);
            canvas.styled_text(
                tool_w,
                y + 14.0,
                Anchor::Start,
                10.0,
                "fill=\"#b00020\"",
                &text,
            );
            continue;
        }
        let sites = tool.sites.as_ref();
        let values = [
            sites.and_then(|s| s.coverage),
            sites.and_then(|s| s.precision),
            tool.pair_recall,
            tool.pair_precision,
        ];
        for (i, value) in values.iter().enumerate() {
            let x = tool_w + METRIC_W * i as f64;
            draw_share_bar(canvas, x, y, *value, !tool.is_peer);
        }
        draw_time_bar(
            canvas,
            tool_w + METRIC_W * 4.0,
            y,
            tool.wall_ms,
            !tool.is_peer,
        );
    }
}

fn bar_colour(engine: bool) -> &'static str {
    match engine {
        true => "#1f77b4",
        false => "#ff7f0e",
    }
}

fn draw_share_bar(canvas: &mut Canvas, x: f64, y: f64, value: Option<f64>, engine: bool) {
    canvas.rect(Rect::new(x, y + 4.0, BAR_W, 12.0), "#eeeeee", "");
    if let Some(v) = value {
        canvas.rect(
            Rect::new(x, y + 4.0, BAR_W * v, 12.0),
            bar_colour(engine),
            "",
        );
    }
    canvas.text(
        x + BAR_W + 4.0,
        y + 14.0,
        Anchor::Start,
        10.0,
        &floored_percent(value),
    );
}

fn draw_time_bar(canvas: &mut Canvas, x: f64, y: f64, wall_ms: Option<u64>, engine: bool) {
    let (lo, hi) = TIME_DECADES;
    let span = f64::from(hi - lo);
    canvas.rect(Rect::new(x, y + 4.0, BAR_W, 12.0), "#eeeeee", "");
    for decade in lo..=hi {
        let tx = x + BAR_W * f64::from(decade - lo) / span;
        canvas.line(tx, y + 2.0, tx, y + 18.0, "#ffffff");
    }
    let Some(ms) = wall_ms else {
        canvas.text(x + BAR_W + 4.0, y + 14.0, Anchor::Start, 10.0, "—");
        return;
    };
    let share = (((ms.max(1) as f64).log10() - f64::from(lo)) / span).clamp(0.0, 1.0);
    canvas.rect(
        Rect::new(x, y + 4.0, BAR_W * share, 12.0),
        bar_colour(engine),
        "",
    );
    let text = format!("{:.2} s", ms as f64 / 1000.0);
    canvas.text(x + BAR_W + 4.0, y + 14.0, Anchor::Start, 10.0, &text);
}

/// At most `limit` characters, an ellipsis marking a cut.
fn shortened(text: &str, limit: usize) -> String {
    match text.chars().count() > limit {
        true => format!("{}…", text.chars().take(limit - 1).collect::<String>()),
        false => text.to_string(),
    }
}

pub fn peers(measurements: &Measurements) -> String {
    peers_canvas(measurements).finish(PEERS_TITLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::Figures;
    use crate::score::Verdict;
    use crate::svg::overlapping_texts;

    fn committed() -> Measurements {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/measurements.json");
        Measurements::load(&path, u64::MAX).expect("the committed measurements")
    }

    /// Sixty rows at nearly the same coverage and error rate, long ids, peers too.
    fn crowded() -> Measurements {
        let rows = (0..60)
            .map(|i| {
                let mut row = Row {
                    id: match i % 3 {
                        0 => format!("a-rather-long-corpus-{i}@a-peer-with-a-long-registry-name"),
                        _ => format!("corpus-{i}"),
                    },
                    language: ["python", "go", "rust"][i % 3].into(),
                    ..Row::default()
                };
                row.engine.name = match i % 3 {
                    0 => "peer".into(),
                    _ => "callgraph".into(),
                };
                row.figures = Some(Figures {
                    coverage: Some(0.95 + (i % 5) as f64 * 0.001),
                    precision: Some(1.0),
                    engine_calls: 10,
                    ..Figures::default()
                });
                row.verdicts = [(Verdict::Right, 1000 + i as u64)].into_iter().collect();
                row.families.insert(
                    "lexical".into(),
                    FamilyFigures {
                        answers: 123_456,
                        right: 100_000,
                        wrong: i as u64,
                        precision: Some(0.9999),
                    },
                );
                row
            })
            .collect();
        Measurements::new(rows)
    }

    fn assert_readable(canvas: &Canvas, what: &str) {
        let overlaps = overlapping_texts(&canvas.texts);
        assert!(overlaps.is_empty(), "{what}: texts overlap: {overlaps:?}");
        let page = Rect::new(0.0, 0.0, canvas.width, canvas.height);
        for (r, t) in &canvas.texts {
            assert!(r.inside(&page), "{what}: `{t}` leaves the chart: {r:?}");
        }
    }

    #[test]
    fn no_two_texts_overlap_on_the_committed_data() {
        let m = committed();
        assert_readable(&coverage_error_canvas(&m), "scatter");
        assert_readable(&family_heatmap_canvas(&m), "heat map");
        assert_readable(&peers_canvas(&m), "peers");
    }

    #[test]
    fn no_two_texts_overlap_when_every_point_crowds_one_spot() {
        let m = crowded();
        let scatter = coverage_error_canvas(&m);
        assert_readable(&scatter, "scatter");
        assert!(scatter.texts.iter().any(|(_, t)| t == "corpus-59"));
        assert_readable(&family_heatmap_canvas(&m), "heat map");
        assert_readable(&peers_canvas(&m), "peers");
    }

    #[test]
    fn a_row_without_a_wrong_answer_sits_at_one_over_judged() {
        let sites = SiteView {
            judged_in_tree: 10,
            coverage: Some(1.0),
            precision: Some(1.0),
            judged_answers: 250,
            errors: 0,
        };
        assert_eq!(plotted_rate(&sites), 0.004);
        assert_eq!(plotted_rate(&SiteView { errors: 5, ..sites }), 0.02);
    }

    #[test]
    fn decades_read_as_percentages() {
        assert_eq!(decade_label(0), "100%");
        assert_eq!(decade_label(-2), "1%");
        assert_eq!(decade_label(-4), "0.01%");
    }

    #[test]
    fn a_cell_is_coloured_by_its_wrong_share() {
        let f = |right, wrong| FamilyFigures {
            answers: right + wrong,
            right,
            wrong,
            precision: None,
        };
        assert_eq!(heat_class(&f(0, 0)), 0);
        assert_eq!(heat_class(&f(10, 0)), 1);
        assert_eq!(heat_class(&f(9999, 1)), 2);
        assert_eq!(heat_class(&f(95, 5)), 5);
    }
}
