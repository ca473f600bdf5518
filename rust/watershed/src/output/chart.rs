//! Pictures with axes, units and a legend. A picture is framed by tick-labelled axes in
//! metres (kilometres from 10 km), with a title and the vertical axis's name above it and
//! the horizontal axis's name and a legend below it. Text is drawn in the 8 × 8 pixel
//! bitmap font of `font8x8`, scaled to the picture's size.

use crate::output::render::Image;
use font8x8::UnicodeFonts;

/// Ink of text, ticks and the frame.
const INK: [u8; 3] = [40, 40, 40];
/// The paper around the picture.
const PAPER: [u8; 3] = [255, 255, 255];
/// About how many ticks an axis gets.
const TICKS: usize = 6;
/// A picture whose longer side is shorter than this is drawn larger, each pixel a square
/// of pixels, so a small map's cells, ticks, title and legend stay legible.
const MIN_PICTURE_SIDE: usize = 360;

/// One axis of a framed picture: the values at its two ends in metres, and its name.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The value at the left (horizontal axis) or top (vertical axis) edge, metres.
    pub start_m: f64,
    /// The value at the right or bottom edge, metres.
    pub end_m: f64,
    /// What the axis measures, without its unit ("x", "height").
    pub name: String,
}

impl Axis {
    /// An axis from `start_m` to `end_m` named `name`.
    pub fn new(name: &str, start_m: f64, end_m: f64) -> Self {
        Axis { start_m, end_m, name: name.to_string() }
    }

    /// The axis's unit ("m", or "km" where a value reaches 10 km) and its ticks: each at a
    /// fraction 0..=1 of the way from start to end, with its label in that unit.
    pub fn ticks(&self) -> (&'static str, Vec<(f64, String)>) {
        let (lo, hi) = (self.start_m.min(self.end_m), self.start_m.max(self.end_m));
        let km = lo.abs().max(hi.abs()) >= 10_000.0;
        let (unit, per) = if km { ("km", 1000.0) } else { ("m", 1.0) };
        let step = nice_step((hi - lo) / per, TICKS);
        let decimals = (-libm::floor(libm::log10(step))).max(0.0) as usize;
        let span = self.end_m - self.start_m;
        let first = libm::ceil(lo / per / step - 1e-9) as i64;
        let last = libm::floor(hi / per / step + 1e-9) as i64;
        let ticks = (first..=last)
            .map(|k| {
                let v = k as f64 * step;
                let label = format!("{:.*}", decimals, v);
                let label =
                    if label.trim_start_matches(['-', '0', '.']).is_empty() { "0".into() } else { label };
                let at = if span == 0.0 { 0.0 } else { (v * per - self.start_m) / span };
                (at, label)
            })
            .collect();
        (unit, ticks)
    }

    /// The axis's name with its unit: "x (m)".
    fn title(&self) -> String {
        format!("{} ({})", self.name, self.ticks().0)
    }
}

/// A step of 1, 2 or 5 times a power of ten that cuts `span` into about `count` parts
/// (1 for an empty span).
pub fn nice_step(span: f64, count: usize) -> f64 {
    let raw = span.abs() / count.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let power = libm::pow(10.0, libm::floor(libm::log10(raw)));
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= raw);
    step.unwrap_or(10.0 * power)
}

/// One entry of a legend.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A filled square of a colour, and what it stands for.
    Swatch([u8; 3], String),
    /// A short line of a colour, and what it stands for.
    Line([u8; 3], String),
    /// A colour ramp (its colours from left to right), labelled at its two ends.
    Ramp(Vec<[u8; 3]>, String, String),
}

/// `picture` framed: `title` and the vertical axis's name above it, tick-labelled axes
/// along its left (`y`) and bottom (`x`) edges, the horizontal axis's name and the
/// `legend` below it, on white.
///
/// A picture under [`MIN_PICTURE_SIDE`] pixels on its longer side is drawn a whole number
/// of times larger; the frame is wide enough for the title and the legend, and a tick
/// label that would run into the one before it is left out.
pub fn framed(picture: &Image, title: &str, x: &Axis, y: &Axis, legend: &[Key]) -> Image {
    let picture = &enlarged(picture, MIN_PICTURE_SIDE);
    let scale = (picture.width.max(picture.height).div_ceil(600)).clamp(1, 3);
    let g = 8 * scale;
    let gap = g / 2;
    let (_, x_ticks) = x.ticks();
    let (_, y_ticks) = y.ticks();
    let widest_y = y_ticks.iter().map(|t| text_width(&t.1, scale)).max().unwrap_or(0);
    let last_x = x_ticks.last().map_or(0, |t| text_width(&t.1, scale));
    let left = gap + widest_y + gap + gap;
    // The title row, the vertical axis's name, and room for half its top tick label.
    let top = gap + g + gap + g + gap + g / 2 + gap;
    let right = gap + last_x / 2 + gap;
    let legend_rows = usize::from(!legend.is_empty());
    let bottom = gap + gap + g + gap + g + gap + legend_rows * (g + gap) + gap;
    let (pw, ph) = (picture.width, picture.height);
    let legend_width: usize = legend.iter().map(|key| key_width(key, scale) + 2 * g).sum();
    let words = text_width(title, scale).max(legend_width);
    let (w, h) = ((left + pw + right).max(left + words + gap), top + ph + bottom);
    let mut out = Image { width: w, height: h, rgb: PAPER.repeat(w * h) };
    for row in 0..ph {
        let from = row * pw * 3;
        let to = ((top + row) * w + left) * 3;
        out.rgb[to..to + pw * 3].copy_from_slice(&picture.rgb[from..from + pw * 3]);
    }
    rectangle(&mut out, (left - 1, top - 1), (pw + 2, ph + 2), INK, false);
    let mut free_from = 0;
    for (at, label) in &x_ticks {
        let px = left + (at * (pw.max(1) - 1) as f64).round() as usize;
        let lx = px.saturating_sub(text_width(label, scale) / 2);
        if lx < free_from {
            continue;
        }
        rectangle(&mut out, (px, top + ph + 1), (1, gap), INK, true);
        free_from = text(&mut out, (lx, top + ph + gap + gap), label, scale, INK) + g;
    }
    let name = x.title();
    let centre = left + pw / 2;
    text(
        &mut out,
        (centre.saturating_sub(text_width(&name, scale) / 2), top + ph + 2 * gap + g + gap),
        &name,
        scale,
        INK,
    );
    for (at, label) in &y_ticks {
        let py = top + (at * (ph.max(1) - 1) as f64).round() as usize;
        rectangle(&mut out, (left - 1 - gap, py), (gap, 1), INK, true);
        let lx = left - 2 * gap - text_width(label, scale);
        text(&mut out, (lx, py.saturating_sub(g / 2)), label, scale, INK);
    }
    text(&mut out, (left, gap), title, scale, INK);
    text(&mut out, (gap, gap + g + gap), &y.title(), scale, INK);
    let mut cursor = left;
    let row = h - gap - g - gap;
    for key in legend {
        cursor = draw_key(&mut out, (cursor, row), key, scale) + 2 * g;
    }
    out
}

/// `picture` drawn the least whole number of times larger that makes its longer side at
/// least `min_side` pixels (itself when it is already).
pub fn enlarged(picture: &Image, min_side: usize) -> Image {
    let side = picture.width.max(picture.height).max(1);
    let times = min_side.div_ceil(side).max(1);
    if times == 1 {
        return picture.clone();
    }
    let (w, h) = (picture.width * times, picture.height * times);
    let mut rgb = Vec::with_capacity(w * h * 3);
    for row in 0..h {
        for col in 0..w {
            let at = ((row / times) * picture.width + col / times) * 3;
            rgb.extend_from_slice(&picture.rgb[at..at + 3]);
        }
    }
    Image { width: w, height: h, rgb }
}

/// Width of one legend entry drawn at `scale`, pixels.
fn key_width(key: &Key, scale: usize) -> usize {
    let g = 8 * scale;
    match key {
        Key::Swatch(_, words) => g + g / 2 + text_width(words, scale),
        Key::Line(_, words) => 2 * g + g / 2 + text_width(words, scale),
        Key::Ramp(_, low, high) => text_width(low, scale) + g / 2 + 8 * g + g / 2 + text_width(high, scale),
    }
}

/// Draws one legend entry with its top-left at `at`; returns the x just past it.
fn draw_key(image: &mut Image, at: (usize, usize), key: &Key, scale: usize) -> usize {
    let g = 8 * scale;
    let (x, y) = at;
    let (mark, words) = match key {
        Key::Swatch(rgb, words) => {
            rectangle(image, (x, y), (g, g), *rgb, true);
            (g, words)
        }
        Key::Line(rgb, words) => {
            rectangle(image, (x, y + g / 2 - scale), (2 * g, 2 * scale), *rgb, true);
            (2 * g, words)
        }
        Key::Ramp(colours, low, high) => {
            let x = text(image, (x, y), low, scale, INK) + g / 2;
            let width = 8 * g;
            for k in 0..width {
                let c = colours[k * colours.len().max(1) / width.max(1)];
                rectangle(image, (x + k, y), (1, g), c, true);
            }
            return text(image, (x + width + g / 2, y), high, scale, INK);
        }
    };
    text(image, (x + mark + g / 2, y), words, scale, INK)
}

/// Width of `words` drawn at `scale`, pixels.
pub fn text_width(words: &str, scale: usize) -> usize {
    words.chars().count() * 8 * scale
}

/// Draws `words` with its top-left at `at`, each glyph 8 × `scale` pixels square (a
/// character the font lacks as "?"); returns the x just past the last glyph. Pixels off
/// the image are skipped.
pub fn text(image: &mut Image, at: (usize, usize), words: &str, scale: usize, rgb: [u8; 3]) -> usize {
    let mut x = at.0;
    for c in words.chars() {
        let glyph = font8x8::BASIC_FONTS
            .get(c)
            .or_else(|| font8x8::LATIN_FONTS.get(c))
            .or_else(|| font8x8::BASIC_FONTS.get('?'))
            .unwrap_or([0; 8]);
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits & (1 << col) != 0 {
                    rectangle(image, (x + col * scale, at.1 + row * scale), (scale, scale), rgb, true);
                }
            }
        }
        x += 8 * scale;
    }
    x
}

/// A rectangle with its top-left at `at`, `size` (width, height) pixels, filled or as a
/// one-pixel outline; pixels off the image are skipped.
fn rectangle(image: &mut Image, at: (usize, usize), size: (usize, usize), rgb: [u8; 3], fill: bool) {
    for y in at.1..at.1 + size.1 {
        for x in at.0..at.0 + size.0 {
            let edge = y == at.1 || y + 1 == at.1 + size.1 || x == at.0 || x + 1 == at.0 + size.0;
            if (fill || edge) && x < image.width && y < image.height {
                let k = (y * image.width + x) * 3;
                image.rgb[k..k + 3].copy_from_slice(&rgb);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(image: &Image, rgb: [u8; 3]) -> usize {
        image.rgb.chunks(3).filter(|p| *p == rgb).count()
    }

    #[test]
    fn ticks_fall_on_round_numbers_in_metres_or_kilometres() {
        let (unit, ticks) = Axis::new("x", 0.0, 4000.0).ticks();
        assert_eq!(unit, "m");
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "1000", "2000", "3000", "4000"]);
        assert_eq!(ticks[1].0, 0.25);
        let (unit, ticks) = Axis::new("distance", 0.0, 27_300.0).ticks();
        assert_eq!(unit, "km");
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "5", "10", "15", "20", "25"]);
        // A height axis runs from its top (high) to its bottom (low).
        let (_, ticks) = Axis::new("height", 12.5, -3.0).ticks();
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "5", "10"]);
        assert!((ticks[0].0 - 12.5 / 15.5).abs() < 1e-12, "0 m sits 12.5 of 15.5 m down");
        let (_, ticks) = Axis::new("y", 0.0, 0.36).ticks();
        let labels: Vec<&str> = ticks.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(labels, ["0", "0.1", "0.2", "0.3"]);
    }

    #[test]
    fn a_small_picture_is_drawn_larger_in_a_frame_wide_enough_for_its_words() {
        let tiny = Image { width: 12, height: 9, rgb: [10, 200, 30].repeat(12 * 9) };
        let title = "relief and water: 120 x 91 cells of 2470 m";
        let legend = [
            Key::Swatch([1, 2, 3], "lowest ground -1437.0 m".into()),
            Key::Swatch([4, 5, 6], "water".into()),
        ];
        let out =
            framed(&tiny, title, &Axis::new("x", 0.0, 296_400.0), &Axis::new("y", 0.0, 224_770.0), &legend);
        assert_eq!(count(&out, [10, 200, 30]), 360 * 270, "30 times larger: 360 x 270");
        assert!(out.width >= text_width(title, 1) + 20, "{} px for the title", out.width);
        assert!(out.width >= text_width("lowest ground -1437.0 m", 1) + text_width("water", 1) + 40);
        let big = Image { width: 400, height: 10, rgb: vec![0; 400 * 30] };
        assert_eq!(enlarged(&big, 360), big, "already large enough");
    }

    #[test]
    fn nice_steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(nice_step(4000.0, 6), 1000.0);
        assert_eq!(nice_step(7.0, 6), 2.0);
        assert_eq!(nice_step(0.3, 6), 0.05);
        assert_eq!(nice_step(0.0, 6), 1.0);
        assert_eq!(nice_step(f64::NAN, 6), 1.0);
    }

    #[test]
    fn text_is_drawn_in_glyphs_of_the_scale_and_unknown_characters_as_a_question_mark() {
        let mut image = Image { width: 64, height: 16, rgb: PAPER.repeat(64 * 16) };
        let end = text(&mut image, (0, 0), "1", 2, INK);
        assert_eq!(end, 16);
        let inked = count(&image, INK);
        assert!(inked > 0 && inked.is_multiple_of(4), "whole 2 × 2 blocks: {inked}");
        let mut a = Image { width: 8, height: 8, rgb: PAPER.repeat(64) };
        let mut b = a.clone();
        text(&mut a, (0, 0), "\u{2603}", 1, INK);
        text(&mut b, (0, 0), "?", 1, INK);
        assert_eq!(a, b);
        // Glyphs past the image's edge are cut off, not a panic.
        assert_eq!(text(&mut image, (60, 12), "wide", 1, INK), 92);
    }

    #[test]
    fn a_framed_picture_keeps_every_pixel_and_gains_labels_and_a_legend() {
        let red = [200, 10, 10];
        let picture = Image { width: 400, height: 200, rgb: red.repeat(400 * 200) };
        let legend = [
            Key::Swatch([10, 90, 200], "water".into()),
            Key::Line([10, 200, 90], "ground".into()),
            Key::Ramp(vec![[0, 0, 0], [0, 0, 255]], "1 m^2".into(), "9 km^2".into()),
        ];
        let x = Axis::new("x", 0.0, 3000.0);
        let y = Axis::new("y", 0.0, 2000.0);
        let chart = framed(&picture, "relief", &x, &y, &legend);
        assert!(chart.width > picture.width && chart.height > picture.height);
        assert_eq!(count(&chart, red), 400 * 200, "the picture, whole and unchanged");
        assert!(count(&chart, [10, 90, 200]) >= 64, "the swatch");
        assert!(count(&chart, [10, 200, 90]) > 0, "the line");
        assert!(count(&chart, [0, 0, 255]) > 0, "the ramp's end");
        let unframed = framed(&picture, "", &x, &y, &[]);
        assert!(unframed.height < chart.height, "no legend row without a legend");
        let ink_left = (0..chart.height)
            .flat_map(|row| (0..20).map(move |col| (row * chart.width + col) * 3))
            .filter(|&k| chart.rgb[k..k + 3] == INK)
            .count();
        assert!(ink_left > 0, "tick labels left of the picture");
    }
}
