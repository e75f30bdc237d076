//! Hand-written SVG charts: coverage × precision per corpus, and precision per
//! family. Deterministic text (fixed decimals, sorted input), so charts diff cleanly
//! and a merge renders them byte-identically.

use std::fmt::Write;

use crate::model::Measurements;
use crate::tables::{family_order, percent};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 480.0;
const MARGIN: f64 = 60.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn open_svg(svg: &mut String, width: f64, height: f64, title: &str) {
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(title));
    let _ = writeln!(
        svg,
        "<rect width=\"{width:.0}\" height=\"{height:.0}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">{}</text>",
        width / 2.0,
        escape(title)
    );
}

/// Coverage (x) against precision (y), one labelled point per scored row.
pub fn coverage_precision(measurements: &Measurements) -> String {
    let mut svg = String::new();
    open_svg(&mut svg, WIDTH, HEIGHT, "Coverage × precision per corpus");
    let plot_w = WIDTH - 2.0 * MARGIN;
    let plot_h = HEIGHT - 2.0 * MARGIN;
    let x_of = |v: f64| MARGIN + v * plot_w;
    let y_of = |v: f64| HEIGHT - MARGIN - v * plot_h;
    for tick in 0..=10 {
        let v = f64::from(tick) / 10.0;
        let _ = writeln!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#e0e0e0\"/>",
            x_of(v),
            y_of(0.0),
            x_of(v),
            y_of(1.0)
        );
        let _ = writeln!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#e0e0e0\"/>",
            x_of(0.0),
            y_of(v),
            x_of(1.0),
            y_of(v)
        );
        if tick % 2 == 0 {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}%</text>",
                x_of(v),
                y_of(0.0) + 16.0,
                tick * 10
            );
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}%</text>",
                x_of(0.0) - 6.0,
                y_of(v) + 4.0,
                tick * 10
            );
        }
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">coverage</text>",
        WIDTH / 2.0,
        HEIGHT - 16.0
    );
    let _ = writeln!(
        svg,
        "<text x=\"16\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {:.1})\">precision</text>",
        HEIGHT / 2.0,
        HEIGHT / 2.0
    );
    for row in &measurements.rows {
        let Some(figures) = row.figures.as_ref().filter(|_| row.outcome.is_none()) else {
            continue;
        };
        let (Some(coverage), Some(precision)) = (figures.coverage, figures.precision) else {
            continue;
        };
        let (x, y) = (x_of(coverage), y_of(precision));
        let _ = writeln!(
            svg,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"#1f77b4\"><title>{}: coverage {}, precision {}</title></circle>",
            escape(&row.id),
            percent(Some(coverage)),
            percent(Some(precision))
        );
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            x + 8.0,
            y - 6.0,
            escape(&row.id)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// One horizontal bar per (family, corpus) with a precision.
pub fn family_precision(measurements: &Measurements) -> String {
    let mut bars = Vec::new();
    for family in family_order(measurements) {
        for row in &measurements.rows {
            let Some(f) = row.families.get(&family) else {
                continue;
            };
            let Some(precision) = f.precision else {
                continue;
            };
            bars.push((
                format!("{family} · {}", row.id),
                precision,
                f.right,
                f.right + f.wrong,
            ));
        }
    }
    let label_w = 260.0;
    let bar_w = WIDTH - label_w - 90.0;
    let height = 50.0 + 22.0 * bars.len().max(1) as f64 + 20.0;
    let mut svg = String::new();
    open_svg(&mut svg, WIDTH, height, "Precision per family");
    if bars.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"60\" text-anchor=\"middle\">no judged answers</text>",
            WIDTH / 2.0
        );
    }
    for (i, (label, precision, right, judged)) in bars.iter().enumerate() {
        let y = 44.0 + 22.0 * i as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            label_w - 8.0,
            y + 13.0,
            escape(label)
        );
        let _ = writeln!(svg, "<rect x=\"{label_w:.1}\" y=\"{y:.1}\" width=\"{bar_w:.1}\" height=\"16\" fill=\"#eeeeee\"/>");
        let _ = writeln!(
            svg,
            "<rect x=\"{label_w:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"16\" fill=\"#2ca02c\"/>",
            bar_w * precision
        );
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\">{} ({right}/{judged})</text>",
            label_w + bar_w + 6.0,
            y + 13.0,
            percent(Some(*precision))
        );
    }
    svg.push_str("</svg>\n");
    svg
}
