//! The drawing surface of the charts: SVG text with fixed decimals (charts diff
//! cleanly and render byte-identically), and the box every piece of text occupies,
//! recorded as it is drawn, so a test can check that no two texts of a chart overlap
//! and a label placer can look for free room.

use std::fmt::Write;

/// Width of one character as a share of the font size: generous for DejaVu Sans,
/// the widest of the default sans-serif faces (digits 0.64 em), so a box estimated
/// here holds the text as any browser draws it.
const CHAR_EM: f64 = 0.64;

/// An axis-aligned box: `x`, `y` its top-left corner.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    /// Whether the two boxes share any area (touching edges do not).
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }

    pub fn inside(&self, outer: &Rect) -> bool {
        self.x >= outer.x
            && self.y >= outer.y
            && self.x + self.w <= outer.x + outer.w
            && self.y + self.h <= outer.y + outer.h
    }

    pub fn right(&self) -> f64 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
}

/// Where a text's `x` sits in its box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn token(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// The estimated width of `text` at `size`.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * CHAR_EM
}

/// The box of a text drawn at (`x`, baseline `y`): from the ascent (0.8 em above the
/// baseline) to the descent (0.25 em below).
pub fn text_box(x: f64, y: f64, anchor: Anchor, size: f64, text: &str) -> Rect {
    let w = text_width(text, size);
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - w / 2.0,
        Anchor::End => x - w,
    };
    Rect::new(left, y - 0.8 * size, w, 1.05 * size)
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG being drawn, and the box of every text on it.
#[derive(Debug, Clone)]
pub struct Canvas {
    pub width: f64,
    pub height: f64,
    body: String,
    pub texts: Vec<(Rect, String)>,
}

impl Canvas {
    pub fn new(width: f64, height: f64) -> Canvas {
        Canvas {
            width,
            height,
            body: String::new(),
            texts: Vec::new(),
        }
    }

    /// Raw SVG elements (shapes); text goes through [`Canvas::text`].
    pub fn push(&mut self, element: &str) {
        self.body.push_str(element);
        self.body.push('\n');
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{stroke}\"/>"
        );
    }

    /// A rectangle with a hover title when `title` is not empty.
    pub fn rect(&mut self, r: Rect, fill: &str, title: &str) {
        let _ = write!(
            self.body,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"",
            r.x, r.y, r.w, r.h
        );
        match title.is_empty() {
            true => self.body.push_str("/>\n"),
            false => {
                let _ = writeln!(self.body, "><title>{}</title></rect>", escape(title));
            }
        }
    }

    /// A text, its box recorded; returns the box.
    pub fn text(&mut self, x: f64, y: f64, anchor: Anchor, size: f64, text: &str) -> Rect {
        self.styled_text(x, y, anchor, size, "", text)
    }

    /// A text with extra attributes (`fill="…"`, `font-weight="bold"`).
    pub fn styled_text(
        &mut self,
        x: f64,
        y: f64,
        anchor: Anchor,
        size: f64,
        attributes: &str,
        text: &str,
    ) -> Rect {
        let _ = write!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.0}\""
        );
        if anchor != Anchor::Start {
            let _ = write!(self.body, " text-anchor=\"{}\"", anchor.token());
        }
        if !attributes.is_empty() {
            let _ = write!(self.body, " {attributes}");
        }
        let _ = writeln!(self.body, ">{}</text>", escape(text));
        let r = text_box(x, y, anchor, size, text);
        self.texts.push((r, text.to_string()));
        r
    }

    /// A text turned a quarter left about its anchor (a y axis title), centred on
    /// (`x`, `y`); its box is the turned one.
    pub fn vertical_text(&mut self, x: f64, y: f64, size: f64, text: &str) -> Rect {
        let _ = writeln!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size:.0}\" text-anchor=\"middle\" transform=\"rotate(-90 {x:.1} {y:.1})\">{}</text>",
            escape(text)
        );
        let w = text_width(text, size);
        let r = Rect::new(x - 0.8 * size, y - w / 2.0, 1.05 * size, w);
        self.texts.push((r, text.to_string()));
        r
    }

    /// The SVG file: white ground, a title for screen readers and hover.
    pub fn finish(self, title: &str) -> String {
        self.document(title, " xmlns=\"http://www.w3.org/2000/svg\"")
    }

    /// The same drawing inside an HTML page, which needs no namespace.
    pub fn inline(self, title: &str) -> String {
        self.document(title, "")
    }

    fn document(self, title: &str, namespace: &str) -> String {
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg{namespace} width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">",
            w = self.width,
            h = self.height
        );
        let _ = writeln!(svg, "<title>{}</title>", escape(title));
        let _ = writeln!(
            svg,
            "<rect width=\"{:.0}\" height=\"{:.0}\" fill=\"white\"/>",
            self.width, self.height
        );
        svg.push_str(&self.body);
        svg.push_str("</svg>\n");
        svg
    }
}

/// Every pair of texts whose boxes overlap (a chart is readable when it is empty).
pub fn overlapping_texts(texts: &[(Rect, String)]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (i, (a, ta)) in texts.iter().enumerate() {
        for (b, tb) in &texts[i + 1..] {
            if a.intersects(b) {
                found.push((ta.clone(), tb.clone()));
            }
        }
    }
    found
}

/// A label's place: where its text starts (baseline), its box, and whether it sits
/// away from its point (then a leader line joins them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelPlace {
    pub x: f64,
    pub y: f64,
    pub anchor: Anchor,
    pub rect: Rect,
    pub leader: bool,
}

/// Distances from the point tried for a label, nearest first, and the directions
/// tried at each (right, left, up-right, up-left, down-right, down-left, up, down).
const RINGS: &[f64] = &[7.0, 16.0, 28.0, 42.0, 60.0, 84.0, 112.0];
const DIRECTIONS: &[(f64, f64)] = &[
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.7, -0.7),
    (-0.7, -0.7),
    (0.7, 0.7),
    (-0.7, 0.7),
    (0.0, -1.0),
    (0.0, 1.0),
];

/// Places one label per point, each where its box meets no other label, no point
/// marker and nothing `taken`, inside `bounds`: the nearest free candidate around the
/// point; when none is free, in a column of `overflow` (stacked from its top), joined
/// to its point by a leader line. Deterministic: points are placed in the given order.
pub fn place_labels(
    points: &[(f64, f64, String)],
    marker_radius: f64,
    size: f64,
    bounds: Rect,
    overflow: Rect,
    taken: &[Rect],
) -> Vec<LabelPlace> {
    let markers: Vec<Rect> = points
        .iter()
        .map(|(x, y, _)| {
            Rect::new(
                x - marker_radius,
                y - marker_radius,
                2.0 * marker_radius,
                2.0 * marker_radius,
            )
        })
        .collect();
    let mut placed: Vec<Rect> = Vec::new();
    let mut places = Vec::new();
    let mut overflow_y = overflow.y + size;
    for (px, py, text) in points {
        let free = |r: &Rect, placed: &[Rect]| {
            r.inside(&bounds)
                && !placed.iter().any(|p| p.intersects(r))
                && !markers.iter().any(|m| m.intersects(r))
                && !taken.iter().any(|t| t.intersects(r))
        };
        let candidate = RINGS
            .iter()
            .flat_map(|d| DIRECTIONS.iter().map(move |dir| (*d, *dir)))
            .map(|(d, dir)| candidate_place(*px, *py, d, dir, size, text))
            .find(|c| free(&c.rect, &placed));
        let place = candidate.unwrap_or_else(|| {
            let rect = text_box(overflow.x, overflow_y, Anchor::Start, size, text);
            let place = LabelPlace {
                x: overflow.x,
                y: overflow_y,
                anchor: Anchor::Start,
                rect,
                leader: true,
            };
            overflow_y += 1.3 * size;
            place
        });
        placed.push(place.rect);
        places.push(place);
    }
    places
}

/// A label `distance` from the point in `direction`: to the right of it, its text
/// starts there; to the left, it ends there; straight up or down, it is centred.
fn candidate_place(
    px: f64,
    py: f64,
    distance: f64,
    direction: (f64, f64),
    size: f64,
    text: &str,
) -> LabelPlace {
    let (dx, dy) = direction;
    let anchor = match dx {
        d if d > 0.0 => Anchor::Start,
        d if d < 0.0 => Anchor::End,
        _ => Anchor::Middle,
    };
    let x = px + dx * distance;
    // The box's middle on the ray for a side label; its near edge for up and down.
    let middle = py + dy * distance;
    let y = match (dx == 0.0, dy) {
        (true, d) if d < 0.0 => middle - 0.25 * size,
        (true, _) => middle + 0.8 * size,
        (false, _) => middle + 0.3 * size,
    };
    let rect = text_box(x, y, anchor, size, text);
    LabelPlace {
        x,
        y,
        anchor,
        rect,
        leader: distance > RINGS[1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_that_touch_do_not_overlap() {
        let a = Rect::new(0.0, 0.0, 10.0, 10.0);
        assert!(!a.intersects(&Rect::new(10.0, 0.0, 5.0, 5.0)));
        assert!(a.intersects(&Rect::new(9.0, 9.0, 5.0, 5.0)));
    }

    #[test]
    fn a_hundred_labels_on_one_spot_never_overlap() {
        // The crowded case: every point on the same pixel.
        let points: Vec<(f64, f64, String)> = (0..100)
            .map(|i| (200.0, 200.0, format!("corpus-{i}")))
            .collect();
        let bounds = Rect::new(0.0, 0.0, 400.0, 400.0);
        let overflow = Rect::new(410.0, 0.0, 100.0, 2000.0);
        let places = place_labels(&points, 4.0, 11.0, bounds, overflow, &[]);
        let texts: Vec<(Rect, String)> = places
            .iter()
            .zip(&points)
            .map(|(p, (_, _, t))| (p.rect, t.clone()))
            .collect();
        assert_eq!(overlapping_texts(&texts), Vec::<(String, String)>::new());
        assert!(places.iter().any(|p| p.rect.inside(&overflow)));
        assert!(places[0].rect.inside(&bounds) && !places[0].leader);
    }
}
