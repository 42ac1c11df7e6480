//! An inline SVG of a dynamics check that did not pass: its measured quantity over time against
//! the recommended and allowed bands, so the moment and size of a violation are seen, not read.
//! Plain SVG elements only (no script, no external asset, no font file): the page stays one
//! self-contained file.

use std::fmt::Write;

use crate::check::CheckResult;
use crate::report::html::escape;
use crate::text::number;

/// Plot size in CSS pixels, and the margins left for the axis labels.
const WIDTH: f64 = 520.0;
const HEIGHT: f64 = 180.0;
const LEFT: f64 = 104.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 28.0;

/// Coordinates with two decimals: short, and the same bytes on every platform.
fn c(x: f64) -> String {
    format!("{x:.2}")
}

/// The chart of `check`, when it has a series and both bounds; `None` otherwise.
///
/// Grading compares `|value|` with the bounds, so when the series goes below zero the bands
/// are drawn on both sides of zero. A non-finite value is drawn at the edge of the plot, as a
/// red cross: it is a violation of unknown size.
pub fn svg(check: &CheckResult) -> Option<String> {
    let (Some(recommended), Some(allowed)) = (check.recommended, check.allowed) else {
        return None;
    };
    if check.series.is_empty() || !recommended.is_finite() || !allowed.is_finite() {
        return None;
    }
    let finite: Vec<[f64; 2]> = check
        .series
        .iter()
        .copied()
        .filter(|p| p[0].is_finite() && p[1].is_finite())
        .collect();
    let (t0, t1) = check
        .series
        .iter()
        .filter(|p| p[0].is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p[0]), b.max(p[0]))
        });
    if !(t0.is_finite() && t1.is_finite()) {
        return None;
    }
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let high = finite.iter().map(|p| p[1]).fold(allowed, f64::max);
    let low = finite.iter().map(|p| p[1]).fold(0.0, f64::min);
    let two_sided = low < 0.0;
    // Headroom above the largest of the bounds and the values; below zero only when needed.
    let top = if high > 0.0 { high * 1.1 } else { 1.0 };
    let bottom = if two_sided {
        low.min(-allowed) * 1.1
    } else {
        0.0
    };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |t: f64| LEFT + (t - t0) / (t1 - t0) * plot_w;
    let y = |v: f64| TOP + (top - v.clamp(bottom, top)) / (top - bottom) * plot_h;

    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><title>{t}: measured over time against the recommended ({r}) and allowed ({a}) bounds</title>",
        w = WIDTH,
        h = HEIGHT,
        t = escape(&check.check),
        r = number(recommended),
        a = number(allowed)
    );
    // Bands: within recommended (green), within allowed (yellow), beyond (red).
    let band = |s: &mut String, from: f64, to: f64, fill: &str| {
        let (ya, yb) = (y(to), y(from));
        if yb > ya {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
                c(LEFT),
                c(ya),
                c(plot_w),
                c(yb - ya)
            );
        }
    };
    band(&mut s, allowed, top, "#f8d0d0");
    band(&mut s, recommended, allowed, "#fff3c4");
    band(&mut s, 0.0, recommended, "#d9f2d9");
    if two_sided {
        band(&mut s, -recommended, 0.0, "#d9f2d9");
        band(&mut s, -allowed, -recommended, "#fff3c4");
        band(&mut s, bottom, -allowed, "#f8d0d0");
    }
    // Bound lines with their labels on the left.
    let mut bounds = vec![(recommended, "recommended"), (allowed, "allowed")];
    if two_sided {
        bounds.extend([(-recommended, "recommended"), (-allowed, "allowed")]);
    }
    for (v, name) in bounds {
        let _ = write!(
            s,
            "<line x1=\"{l}\" y1=\"{yv}\" x2=\"{r}\" y2=\"{yv}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/><text x=\"{tx}\" y=\"{ty}\" font-size=\"10\" text-anchor=\"end\" fill=\"#444\">{name} {n}</text>",
            l = c(LEFT),
            r = c(LEFT + plot_w),
            yv = c(y(v)),
            tx = c(LEFT - 4.0),
            ty = c(y(v) + 3.0),
            n = number(v)
        );
    }
    // Axes: zero line and the time range.
    let _ = write!(
        s,
        "<line x1=\"{l}\" y1=\"{z}\" x2=\"{r}\" y2=\"{z}\" stroke=\"#444\"/><line x1=\"{l}\" y1=\"{t}\" x2=\"{l}\" y2=\"{b}\" stroke=\"#444\"/><text x=\"{l}\" y=\"{ly}\" font-size=\"10\" fill=\"#444\">t = {t0} s</text><text x=\"{r}\" y=\"{ly}\" font-size=\"10\" text-anchor=\"end\" fill=\"#444\">t = {t1} s</text>",
        l = c(LEFT),
        r = c(LEFT + plot_w),
        z = c(y(0.0)),
        t = c(TOP),
        b = c(TOP + plot_h),
        ly = c(HEIGHT - 8.0),
        t0 = number(t0),
        t1 = number(t1)
    );
    // The measured values.
    let points: Vec<String> = finite
        .iter()
        .map(|p| format!("{},{}", c(x(p[0])), c(y(p[1]))))
        .collect();
    if points.len() > 1 {
        let _ = write!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#1f4e9e\" stroke-width=\"1.5\"/>",
            points.join(" ")
        );
    }
    for p in &finite {
        if p[1].abs() > allowed {
            let _ = write!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"#b3261e\"/>",
                c(x(p[0])),
                c(y(p[1]))
            );
        } else if finite.len() == 1 {
            let _ = write!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"#1f4e9e\"/>",
                c(x(p[0])),
                c(y(p[1]))
            );
        }
    }
    for p in check
        .series
        .iter()
        .filter(|p| p[0].is_finite() && !p[1].is_finite())
    {
        let (px, py) = (x(p[0]), if p[1] < 0.0 { y(bottom) } else { y(top) });
        let _ = write!(
            s,
            "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#b3261e\" stroke-width=\"2\"/>",
            c(px - 4.0),
            c(py),
            c(px + 4.0),
            c(py + 8.0),
            c(px + 4.0),
            c(py),
            c(px - 4.0),
            c(py + 8.0)
        );
    }
    s.push_str("</svg>");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;

    fn check(series: Vec<[f64; 2]>) -> CheckResult {
        CheckResult {
            check: "dynamics.limit".into(),
            status: Status::Fail,
            measured: Some(0.3),
            recommended: Some(0.1),
            allowed: Some(0.2),
            decisions: Vec::new(),
            message: String::new(),
            series,
        }
    }

    /// Hand-placed: values 0 at t = 0 and 0.3 at t = 1; top = 0.3 x 1.1 = 0.33; the plot is
    /// 520 - 104 - 12 = 404 wide and 180 - 12 - 28 = 140 high. So (0, 0) is at (104, 152) and
    /// (1, 0.3) at (508, 12 + (0.33 - 0.3) / 0.33 x 140 = 24.73); the allowed line 0.2 at
    /// y = 12 + 0.13 / 0.33 x 140 = 67.15; the violation (0.3 > 0.2) gets a red dot.
    #[test]
    fn points_and_bands_are_where_the_numbers_say() {
        let s = svg(&check(vec![[0.0, 0.0], [1.0, 0.3]])).expect("a chart");
        assert!(s.contains("points=\"104.00,152.00 508.00,24.73\""), "{s}");
        assert!(s.contains("y1=\"67.15\""), "{s}");
        assert!(s.contains("<circle cx=\"508.00\" cy=\"24.73\""), "{s}");
        assert!(s.contains(">allowed 0.2</text>"), "{s}");
        assert!(s.contains(">t = 1 s</text>"), "{s}");
        assert!(!s.contains("<script"), "{s}");
    }

    #[test]
    fn negative_values_get_bands_on_both_sides() {
        let s = svg(&check(vec![[0.0, -0.3], [1.0, 0.05]])).expect("a chart");
        assert!(s.contains(">allowed -0.2</text>"), "{s}");
    }

    #[test]
    fn no_series_or_no_bounds_no_chart() {
        assert!(svg(&check(Vec::new())).is_none());
        let mut c = check(vec![[0.0, 1.0]]);
        c.allowed = None;
        assert!(svg(&c).is_none());
        // A non-finite value is drawn as a cross at the edge, not dropped.
        let s = svg(&check(vec![[0.0, 0.0], [1.0, f64::NAN]])).expect("a chart");
        assert!(s.contains("<path d="), "{s}");
    }
}
