//! A heightmap world's maps in the files heightmap add-ons import: `terrain3d/` at the
//! map's own size, `hterrain/` resampled to a side of 2ⁿ + 1. Both hold the heights, the
//! ground layers and what a water shader needs (level, mask, flow, foam); `import.json`
//! says what each file is.

use crate::dem::{exr_bytes, exr_channels, r16_bytes_over};
use exr::prelude::Encoding;
use std::path::Path;
use watershed::{hterrain_side, GridMaps, Layer};

/// The ground layers in texture-id order, as `import.json` names them.
const LAYERS: [(Layer, &str); 4] =
    [(Layer::Bed, "bed"), (Layer::Bank, "bank"), (Layer::Grass, "grass"), (Layer::Rock, "rock")];

/// Writes `maps` for Terrain3D into `dir` (created): heights as 32-bit float EXR and
/// `heights.r16` (what `Terrain3DUtil.load_image` reads with a range and a size), the
/// control map, the splat map and the water maps.
///
/// # Errors
/// A file that cannot be written, naming it.
pub fn write_terrain3d(maps: &GridMaps, dir: &Path) -> Result<(), String> {
    create(dir)?;
    let control: Vec<f32> = maps.control.iter().map(|&w| f32::from_bits(w)).collect();
    // Control words and flow are mostly repeats: the small encoding shrinks them tenfold.
    write(
        dir,
        "control.exr",
        &exr_channels(maps.rows, maps.cols, vec![("R", control)], Encoding::SMALL_LOSSLESS)?,
    )?;
    let range = write_common(maps, dir, "heights.r16")?;
    let import = serde_json::json!({
        "for": "Terrain3D",
        "size": [maps.cols, maps.rows],
        "vertex_spacing_m": maps.cell_m,
        "heights": {"exr": "heights.exr", "r16": "heights.r16", "r16_range": "heights.r16.json",
                    "bit_depth": 16, "big_endian": false, "min_m": range.0, "max_m": range.1},
        "control": "control.exr",
        "texture_ids": texture_ids(),
        "water": water_files(),
    });
    write(dir, "import.json", import.to_string().as_bytes())
}

/// Writes `maps`, resampled to the nearest HTerrain side, into `dir` (created): heights as
/// 32-bit float EXR and as `heights.raw`, 16-bit little-endian (HTerrain's importer takes
/// RAW only by that extension, and reads 32-bit RAW as unsigned integers, not floats, so
/// there is no 32-bit RAW), the splat map and the water maps. Returns the side, or `None`
/// (and writes nothing) when the map is not square.
///
/// # Errors
/// A file that cannot be written, naming it.
pub fn write_hterrain(maps: &GridMaps, dir: &Path) -> Result<Option<usize>, String> {
    let side = hterrain_side(maps.rows, maps.cols);
    let Some(maps) =
        (if side == maps.rows && side == maps.cols { Some(maps.clone()) } else { maps.resized(side) })
    else {
        return Ok(None);
    };
    create(dir)?;
    let range = write_common(&maps, dir, "heights.raw")?;
    let import = serde_json::json!({
        "for": "HTerrain",
        "size": side,
        "cell_m": maps.cell_m,
        "heights": {"exr": "heights.exr", "raw": "heights.raw", "raw_range": "heights.raw.json",
                    "bit_depth": 16, "big_endian": false, "min_m": range.0, "max_m": range.1},
        "splat": "splat.png",
        "texture_ids": texture_ids(),
        "water": water_files(),
    });
    write(dir, "import.json", import.to_string().as_bytes())?;
    Ok(Some(side))
}

/// The files both add-ons get, the 16-bit heights named `raw` and their range `raw`.json;
/// returns the metres the 16-bit 0 and 65535 stand for.
fn write_common(maps: &GridMaps, dir: &Path, raw: &str) -> Result<(f64, f64), String> {
    let (rows, cols) = (maps.rows, maps.cols);
    write(dir, "heights.exr", &exr_bytes(rows, cols, &maps.heights)?)?;
    let (lo, hi) = centimetre_range(&maps.heights);
    write(dir, raw, &r16_bytes_over(&maps.heights, (lo, hi)))?;
    let range = serde_json::json!({"rows": rows, "cols": cols, "min_m": lo, "max_m": hi,
                                   "bit_depth": 16, "big_endian": false});
    write(dir, &format!("{raw}.json"), range.to_string().as_bytes())?;
    write(dir, "splat.png", &png(cols, rows, png::ColorType::Rgba, &maps.splat.concat())?)?;
    write(dir, "water_level.exr", &exr_bytes(rows, cols, &maps.water_level)?)?;
    write(dir, "water_mask.png", &png(cols, rows, png::ColorType::Rgba, &maps.water_mask.concat())?)?;
    let channel = |k: usize| maps.flow.iter().map(|f| f[k]).collect::<Vec<f32>>();
    let flow = vec![("R", channel(0)), ("G", channel(1)), ("B", channel(2))];
    write(dir, "flow.exr", &exr_channels(rows, cols, flow, Encoding::SMALL_LOSSLESS)?)?;
    write(dir, "foam.png", &png(cols, rows, png::ColorType::Grayscale, &maps.foam)?)?;
    Ok((lo, hi))
}

/// The lowest and highest of `heights` rounded outwards to whole centimetres: the 16-bit
/// range, so that it can be typed into the importers' dialogs as it is (HTerrain's rounds its
/// minimum and maximum heights to 0.01).
fn centimetre_range(heights: &[f32]) -> (f64, f64) {
    let (lo, hi) = heights
        .iter()
        .map(|&h| f64::from(h))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), h| (lo.min(h), hi.max(h)));
    if lo > hi {
        return (0.0, 0.0);
    }
    ((lo * 100.0).floor() / 100.0, (hi * 100.0).ceil() / 100.0)
}

/// The texture id of each ground layer, by name.
fn texture_ids() -> serde_json::Value {
    LAYERS.iter().map(|(layer, name)| ((*name).to_owned(), serde_json::json!(*layer as u8))).collect()
}

/// What the water files hold, for `import.json`.
fn water_files() -> serde_json::Value {
    serde_json::json!({
        "level": "water_level.exr (R: metres, never NaN; dry cells beside water carry its level)",
        "mask": "water_mask.png (R river, G lake, B sea, A any water)",
        "flow": "flow.exr (R, G: unit flow direction along x and down the rows; B: speed, m/s)",
        "foam": "foam.png (0 none .. 255 white water)",
        "splat": "splat.png (R bed, G bank, B grass, A rock; weights sum to 255)",
    })
}

/// An 8-bit PNG of `width` × `height` pixels of `color` from `data`.
pub fn png(width: usize, height: usize, color: png::ColorType, data: &[u8]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width as u32, height as u32);
    encoder.set_color(color);
    let mut writer = encoder.write_header().map_err(|e| format!("png: {e}"))?;
    writer.write_image_data(data).map_err(|e| format!("png: {e}"))?;
    writer.finish().map_err(|e| format!("png: {e}"))?;
    Ok(bytes)
}

fn create(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dem::{exr_float_channels, read_dem};

    /// Maps of `side` × `side` cells with every value distinct enough to notice a swap.
    fn sample_maps(side: usize) -> GridMaps {
        let n = side * side;
        let f = |i: usize, k: f32| ((i * 37 + 11) % 97) as f32 * k - 20.0;
        GridMaps {
            rows: side,
            cols: side,
            cell_m: 2.0,
            heights: (0..n).map(|i| f(i, 1.5)).collect(),
            water_level: (0..n).map(|i| f(i, 0.25)).collect(),
            water_mask: (0..n).map(|i| [(i % 2) as u8 * 255, 0, (i % 3 == 0) as u8 * 255, 255]).collect(),
            flow: (0..n).map(|i| [(i as f32).cos(), (i as f32).sin(), f(i, 0.01) + 20.0]).collect(),
            foam: (0..n).map(|i| (i * 7 % 256) as u8).collect(),
            splat: (0..n).map(|i| [(i % 256) as u8, 255 - (i % 256) as u8, 0, 0]).collect(),
            control: (0..n)
                .map(|i| watershed::control_word((i % 4) as u8, (i % 3) as u8, (i % 256) as u8))
                .collect(),
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("watershed-addon-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn channels(path: &Path) -> Vec<(String, Vec<f32>)> {
        exr_float_channels(&std::fs::read(path).expect("read")).expect("exr")
    }

    fn png_bytes(path: &Path) -> Vec<u8> {
        image::open(path).expect("png").into_bytes()
    }

    /// Everything written for Terrain3D reads back: floats bit for bit, the control words
    /// exactly, R16 within one step, PNGs exactly.
    #[test]
    fn terrain3d_files_round_trip() {
        let maps = sample_maps(9);
        let dir = scratch("t3d");
        write_terrain3d(&maps, &dir).expect("write");
        let heights =
            read_dem(&dir.join("heights.exr"), &std::fs::read(dir.join("heights.exr")).expect("read"), None)
                .expect("heights");
        assert_eq!(heights.data.iter().map(|&h| h as f32).collect::<Vec<_>>(), maps.heights);
        let control = channels(&dir.join("control.exr"));
        assert_eq!(control.len(), 1);
        assert_eq!(control[0].1.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), maps.control);
        assert_eq!(channels(&dir.join("water_level.exr"))[0].1, maps.water_level);
        let flow = channels(&dir.join("flow.exr"));
        assert_eq!(flow.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["B", "G", "R"]);
        for (k, name) in ["R", "G", "B"].iter().enumerate() {
            let got = &flow.iter().find(|c| c.0 == *name).expect("channel").1;
            assert_eq!(*got, maps.flow.iter().map(|f| f[k]).collect::<Vec<_>>(), "{name}");
        }
        assert!(!dir.join("heights.raw").exists() && !dir.join("heights.r32").exists());
        let range: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("heights.r16.json")).expect("json"))
                .expect("json");
        assert_eq!(range["bit_depth"], 16);
        let (lo, hi) = (range["min_m"].as_f64().expect("min"), range["max_m"].as_f64().expect("max"));
        let r16 = read_dem(
            &dir.join("heights.r16"),
            &std::fs::read(dir.join("heights.r16")).expect("r16"),
            Some((lo, hi)),
        )
        .expect("r16");
        let step = (hi - lo) / 65535.0;
        assert!(r16
            .data
            .iter()
            .zip(&maps.heights)
            .all(|(a, &b)| (a - f64::from(b)).abs() <= step / 2.0 + 1e-9));
        assert_eq!(png_bytes(&dir.join("water_mask.png")), maps.water_mask.concat());
        assert_eq!(png_bytes(&dir.join("splat.png")), maps.splat.concat());
        assert_eq!(png_bytes(&dir.join("foam.png")), maps.foam);
        let import: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("import.json")).expect("json"))
                .expect("json");
        assert_eq!(import["texture_ids"]["rock"], 3);
        assert_eq!(import["vertex_spacing_m"], 2.0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The 16-bit range is the heights' own, widened to whole centimetres.
    #[test]
    fn the_16_bit_range_is_whole_centimetres() {
        assert_eq!(centimetre_range(&[-103.039_09, 12.0, 470.201_6]), (-103.04, 470.21));
        assert_eq!(centimetre_range(&[5.0, 5.0]), (5.0, 5.0));
        assert_eq!(centimetre_range(&[]), (0.0, 0.0));
    }

    /// HTerrain gets a side of 2ⁿ + 1 and the files its importer takes as they are: the
    /// 16-bit heights as `heights.raw` (within half a step of the range in
    /// `heights.raw.json`), the EXR in f32, no `.r16` and no 32-bit RAW (HTerrain would read
    /// its floats as integers); a map of the right side is written as it is.
    #[test]
    fn hterrain_files_are_resampled_and_round_trip() {
        let maps = sample_maps(513);
        let dir = scratch("hterrain");
        assert_eq!(write_hterrain(&maps, &dir).expect("write"), Some(513));
        for absent in ["heights.r16", "heights.r16.json", "heights.r32"] {
            assert!(!dir.join(absent).exists(), "{absent} written for HTerrain");
        }
        let range: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("heights.raw.json")).expect("json"))
                .expect("json");
        assert_eq!((range["rows"].as_u64(), range["cols"].as_u64()), (Some(513), Some(513)));
        assert_eq!((range["bit_depth"].as_u64(), range["big_endian"].as_bool()), (Some(16), Some(false)));
        let (lo, hi) = (range["min_m"].as_f64().expect("min"), range["max_m"].as_f64().expect("max"));
        let bytes = std::fs::read(dir.join("heights.raw")).expect("raw");
        assert_eq!(bytes.len(), 513 * 513 * 2, "16 bits a cell, no header");
        // Decoded as HTerrain's importer does: little-endian u16 / 65535 over min..max.
        let step = (hi - lo) / 65535.0;
        assert!(bytes.chunks_exact(2).zip(&maps.heights).all(|(b, &h)| {
            let back = lo + (hi - lo) * f64::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0;
            (back - f64::from(h)).abs() <= step / 2.0 + 1e-9
        }));
        let exr = channels(&dir.join("heights.exr"));
        assert_eq!(exr[0].1, maps.heights);
        let import: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("import.json")).expect("json"))
                .expect("json");
        assert_eq!(import["heights"]["raw"], "heights.raw");
        assert_eq!(import["heights"]["bit_depth"], 16);
        assert_eq!(import["heights"]["min_m"], lo);
        // Whole centimetres, as HTerrain's dialog takes them, and no tighter than the heights.
        assert!(
            [lo, hi].iter().all(|v| format!("{v}").split('.').nth(1).is_none_or(|d| d.len() <= 2)),
            "{lo} {hi}"
        );
        let (min, max) = maps.heights.iter().fold((f32::MAX, f32::MIN), |(a, b), &h| (a.min(h), b.max(h)));
        assert!(
            lo <= f64::from(min)
                && f64::from(min) - lo < 0.01
                && hi >= f64::from(max)
                && hi - f64::from(max) < 0.01
        );
        let _ = std::fs::remove_dir_all(&dir);
        let small = sample_maps(40);
        assert_eq!(write_hterrain(&small, &dir).expect("write"), Some(513));
        let splat = image::open(dir.join("splat.png")).expect("png");
        assert_eq!((splat.width(), splat.height()), (513, 513));
        let _ = std::fs::remove_dir_all(&dir);
        let wide = GridMaps { rows: 20, ..sample_maps(40) };
        assert_eq!(write_hterrain(&wide, &dir).expect("write"), None);
        assert!(!dir.exists(), "nothing written for a map that is not square");
    }
}
