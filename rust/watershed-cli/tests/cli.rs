//! The `watershed` binary end to end: exit codes, messages and files.

mod common;

use common::{scratch, watershed};
use std::path::Path;
use watershed::{read_array2, write_npy};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_accepts_the_shipped_file_and_names_a_misspelt_key() {
    let ok = watershed(&["check", "worlds.json"]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert!(text(&ok.stdout).contains("9 worlds OK"));

    let dir = scratch("check");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../worlds.json")).expect("read");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, shipped.replacen("\"relief_m\"", "\"relif_m\"", 1)).expect("write");
    let out = watershed(&["check", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("world 'home': unknown key 'relif_m'; did you mean 'relief_m'?"), "{err}");
}

#[test]
fn unknown_world_is_one_line_and_a_failure() {
    let out = watershed(&["digest", "--world", "atlantis"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: no world 'atlantis' in worlds.json; worlds are: home, dry_moon"),
        "{err}"
    );
}

#[test]
fn bench_drainage_times_an_eroding_world_also_with_erosion_off() {
    let bench = |world: &str| {
        let out = watershed(&["bench", "drainage", "--world", world, "--samples", "2000", "--runs", "1"]);
        assert!(out.status.success(), "{world}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let eroding = bench("pebble");
    assert!(eroding.contains("world build with carve and water table: "), "{eroding}");
    assert!(eroding.contains("world build with erosion off: "), "{eroding}");
    assert!(eroding.contains("erosion adds "), "{eroding}");
    assert!(eroding.contains("life (climate, biomes, sites) on the built world: "), "{eroding}");
    assert!(eroding.contains("life again on the same world, right after: "), "{eroding}");
    let still = bench("dry_moon");
    assert!(still.contains("world build with carve and water table: "), "{still}");
    assert!(!still.contains("erosion off"), "{still}");
}

fn write_dem(path: &Path, shape: &[usize], values: &[f64]) {
    std::fs::write(path, write_npy(shape, values)).expect("write dem");
}

#[test]
fn grid_drain_writes_the_four_arrays() {
    let dir = scratch("grid");
    let dem = dir.join("dem.npy");
    #[rustfmt::skip]
    write_dem(&dem, &[5, 5], &[
        9.0, 9.0, 9.0, 9.0, 9.0,
        9.0, 6.0, 7.0, 8.0, 9.0,
        9.0, 5.0, 2.0, 6.0, 9.0,
        9.0, 6.0, 4.0, 7.0, 9.0,
        9.0, 9.0, 3.0, 9.0, 9.0,
    ]);
    let out_dir = dir.join("out");
    let out = watershed(&[
        "grid-drain",
        "--dem",
        dem.to_str().expect("utf-8"),
        "--cell-m",
        "2",
        "--edge-outlets",
        "--out",
        out_dir.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let filled = read_array2(&std::fs::read(out_dir.join("filled.npy")).expect("filled")).expect("npy");
    assert_eq!(filled.data[12], 4.0);
    let accum = read_array2(&std::fs::read(out_dir.join("accum.npy")).expect("accum")).expect("npy");
    assert_eq!(accum.data[22], 40.0, "ten cells of 4 m² reach the outlet on the edge");
    let receivers = std::fs::read(out_dir.join("receivers.npy")).expect("receivers");
    assert!(String::from_utf8_lossy(&receivers[..128]).contains("'descr': '<i8'"));
    let lake_id = std::fs::read(out_dir.join("lake_id.npy")).expect("lake_id");
    assert!(String::from_utf8_lossy(&lake_id[..128]).contains("'descr': '<i4'"));
}

#[test]
fn grid_drain_rejects_bad_input_clearly() {
    let dir = scratch("bad-grid");
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("flat.npy", write_npy(&[4], &[1.0, 2.0, 3.0, 4.0]), "expected a 2-D array, got shape [4]"),
        ("nan.npy", write_npy(&[2, 2], &[1.0, f64::NAN, 3.0, 4.0]), "value at row 0, column 1 is not finite"),
        ("empty.npy", write_npy::<f64>(&[0, 3], &[]), "the array is empty"),
        ("ints.npy", write_npy(&[2, 2], &[1i64, 2, 3, 4]), "unsupported dtype '<i8'"),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let out = watershed(&[
            "grid-drain",
            "--dem",
            path.to_str().expect("utf-8"),
            "--out",
            dir.to_str().expect("utf-8"),
        ]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{name}: {err}");
    }
}

#[test]
fn grid_world_writes_its_maps_and_report_and_nothing_on_bad_input() {
    let dir = scratch("grid-world");
    // A 32 x 32 valley falling towards its last row.
    let values: Vec<f64> =
        (0..32 * 32).map(|i| (32 - i / 32) as f64 * 0.2 + ((i % 32) as f64 - 16.0).abs() * 0.5).collect();
    let dem = dir.join("valley.npy");
    write_dem(&dem, &[32, 32], &values);
    let out_dir = dir.join("out");
    let out = watershed(&[
        "grid-world",
        "--dem",
        dem.to_str().expect("utf-8"),
        "--out",
        out_dir.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pictures = ["report.json", "ground.npy", "level.npy", "cover.npy", "relief.png", "accumulation.png"];
    let both = ["heights.exr", "splat.png", "water_level.exr"];
    let water = ["water_mask.png", "flow.exr", "foam.png", "import.json"];
    let terrain3d = both
        .iter()
        .chain(&water)
        .chain(&["control.exr", "heights.r16", "heights.r16.json"])
        .map(|n| format!("terrain3d/{n}"));
    let hterrain = both
        .iter()
        .chain(&water)
        .chain(&["heights.raw", "heights.raw.json"])
        .map(|n| format!("hterrain/{n}"));
    for name in pictures.into_iter().map(String::from).chain(terrain3d).chain(hterrain) {
        assert!(out_dir.join(&name).is_file(), "{name} missing");
    }
    for name in ["hterrain/heights.r16", "hterrain/heights.r32", "terrain3d/heights.raw"] {
        assert!(!out_dir.join(name).exists(), "{name} written");
    }
    for name in ["relief.png", "accumulation.png"] {
        let picture = image::open(out_dir.join(name)).expect("a PNG").to_rgb8();
        let (w, h) = picture.dimensions();
        assert!(w > 32 + 40 && h > 32 + 40, "{name} is {w} x {h}: the 32 x 32 map framed by its axes");
        let labels = picture.pixels().filter(|p| p.0 == [40, 40, 40]).count();
        assert!(labels > 200, "{name}: {labels} pixels of axis labels and ticks");
    }
    let ground = read_array2(&std::fs::read(out_dir.join("ground.npy")).expect("ground")).expect("npy");
    assert_eq!((ground.rows, ground.cols), (32, 32));
    assert!(ground.data.iter().zip(&values).all(|(g, n)| g <= n), "the carve never raises the ground");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).expect("report")).expect("json");
    assert_eq!(report["uphill_water"], 0);
    assert_eq!(report["hterrain_side"], 513, "32 cells resampled to HTerrain's smallest side");
    assert_eq!(report["shoreline_mismatches"], 0);
    assert_eq!(report["water_steps"], 0);

    // Not square: everything but HTerrain's maps, and the run says so.
    let wide = dir.join("wide.npy");
    write_dem(&wide, &[20, 30], &values[..600]);
    let wide_out = dir.join("wide");
    let out = watershed(&[
        "grid-world",
        "--dem",
        wide.to_str().expect("utf-8"),
        "--out",
        wide_out.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(wide_out.join("terrain3d/control.exr").is_file());
    assert!(!wide_out.join("hterrain").exists(), "no HTerrain maps for a map that is not square");
    assert!(
        text(&out.stdout).contains("HTerrain takes square maps and this one is 30 x 20"),
        "{}",
        text(&out.stdout)
    );

    let nan = dir.join("nan.npy");
    std::fs::write(&nan, write_npy(&[4, 4], &[[1.0; 8], [f64::NAN; 8]].concat())).expect("write");
    let bad_dir = dir.join("bad");
    let out = watershed(&[
        "grid-world",
        "--dem",
        nan.to_str().expect("utf-8"),
        "--out",
        bad_dir.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("nan.npy: value at row 2, column 0 is not finite"),
        "{}",
        text(&out.stderr)
    );
    assert!(!bad_dir.exists(), "nothing written for bad input");
    let leftovers = std::fs::read_dir(&dir).expect("dir").filter_map(Result::ok);
    assert!(leftovers.map(|e| e.file_name()).all(|n| !n.to_string_lossy().contains("partial")));
}

#[test]
fn export_writes_the_sphere_solve() {
    let dir = scratch("export");
    let out = watershed(&["export", "--world", "pebble", "--out", dir.to_str().expect("utf-8")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in [
        "positions.npy",
        "heights.npy",
        "neighbor_offsets.npy",
        "neighbors.npy",
        "receivers.npy",
        "catchment_m2.npy",
        "water_level.npy",
        "kind.npy",
    ] {
        assert!(dir.join(name).is_file(), "{name}");
    }
    let positions = std::fs::read(dir.join("positions.npy")).expect("positions");
    assert!(String::from_utf8_lossy(&positions[..128]).contains("'shape': (20000, 3)"));
}

#[test]
fn lattice_nodes_solves_a_world_at_another_size_within_the_keys_range() {
    let dir = scratch("lattice-nodes");
    let args =
        ["export", "--world", "pebble", "--lattice-nodes", "3000", "--out", dir.to_str().expect("utf-8")];
    let out = watershed(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let positions = std::fs::read(dir.join("positions.npy")).expect("positions");
    assert!(String::from_utf8_lossy(&positions[..128]).contains("'shape': (3000, 3)"));

    let out = watershed(&["digest", "--world", "pebble", "--lattice-nodes", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.trim(), "error: --lattice-nodes 5: lattice_nodes must be within 1000..=16000000, got 5");
}

/// A 48 x 48 tilted, rippled heightmap with a pit, in metres.
fn ripples() -> Vec<f64> {
    (0..48 * 48)
        .map(|i| {
            let (x, y) = ((i % 48) as f64, (i / 48) as f64);
            0.5 * y + 3.0 * (x / 5.0).sin() * (y / 7.0).cos()
                - if (x - 20.0).hypot(y - 20.0) < 3.0 { 4.0 } else { 0.0 }
        })
        .collect()
}

#[test]
fn erode_writes_heights_frames_animation_scrubber_and_report() {
    let dir = scratch("erode");
    let dem = dir.join("dem.npy");
    write_dem(&dem, &[48, 48], &ripples());
    for model in ["stream-power", "droplets", "water-sediment"] {
        let out_dir = dir.join(model);
        let args = [
            "erode",
            "--dem",
            dem.to_str().expect("utf-8"),
            "--model",
            model,
            "--steps",
            "20",
            "--every",
            "5",
            "--out",
            out_dir.to_str().expect("utf-8"),
        ];
        let out = watershed(&args);
        assert!(out.status.success(), "{model}: {}", text(&out.stderr));
        let heights =
            read_array2(&std::fs::read(out_dir.join("heights.npy")).expect("heights")).expect("npy");
        assert_eq!((heights.rows, heights.cols), (48, 48));
        assert!(heights.data != ripples(), "{model} changed nothing");
        let frames = std::fs::read_dir(out_dir.join("frames")).expect("frames").count();
        assert!(frames >= 2, "{model}: {frames} frames");
        let apng = std::fs::read(out_dir.join("erosion.png")).expect("animation");
        assert!(apng.windows(4).any(|w| w == b"acTL"), "{model}: erosion.png is not animated");
        let page = std::fs::read_to_string(out_dir.join("scrubber.html")).expect("page");
        assert_eq!(page.matches("data:image/png;base64,").count(), frames, "{model}: one image per frame");
        assert!(!page.contains("http"), "{model}: the page must not need the network");
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).expect("report"))
                .expect("json");
        assert!(report["eroded_m3"].as_f64().is_some_and(|v| v > 0.0), "{model}: {report}");
        assert!(report["after"]["lakes"].is_u64());
    }
}

#[test]
fn erode_takes_a_preset_turned_by_flags_and_dials_and_reports_them() {
    let dir = scratch("erode-dials");
    let dem = dir.join("dem.npy");
    write_dem(&dem, &[48, 48], &ripples());
    let run = |name: &str, extra: &[&str]| -> serde_json::Value {
        let out_dir = dir.join(name);
        let mut args = vec!["erode", "--dem", dem.to_str().expect("utf-8"), "--steps", "30"];
        args.extend_from_slice(extra);
        args.extend(["--out", out_dir.to_str().expect("utf-8")]);
        let out = watershed(&args);
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).expect("report"))
            .expect("json")
    };
    let gorges = run(
        "gorges",
        &["--model", "water-sediment", "--preset", "gorges", "--pickup", "0.2", "--dial", "rain=0.03"],
    );
    assert_eq!(gorges["preset"], "gorges");
    let dials = &gorges["dials"];
    assert_eq!((dials["pickup"].as_f64(), dials["rain"].as_f64()), (Some(0.2), Some(0.03)), "{gorges}");
    assert_eq!((dials["carry"].as_f64(), dials["max_cut"].as_f64()), (Some(2.0), Some(0.2)), "{gorges}");
    let plain = run("plain", &["--model", "water-sediment"]);
    assert_eq!(plain["dials"]["carry"].as_f64(), Some(0.5));
    assert!(gorges["eroded_m3"] != plain["eroded_m3"], "the dials changed nothing");
    let droplets = run("droplets", &["--model", "droplets", "--carry", "8", "--dial", "radius=2"]);
    assert_eq!(
        (droplets["dials"]["carry"].as_f64(), droplets["dials"]["radius"].as_f64()),
        (Some(8.0), Some(2.0))
    );
    assert!(run("power", &[])["dials"].is_null());
}

#[test]
fn erode_refuses_what_it_cannot_do() {
    let dir = scratch("erode-bad");
    let tiny = dir.join("tiny.npy");
    write_dem(&tiny, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    // Exit 2 for a flag clap refuses, 1 for what erode itself refuses.
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &["erode", "--dem", tiny.to_str().expect("utf-8"), "--k", "5"],
            2,
            "must be within 0.000000001..=1, got 5",
        ),
        (&["erode", "--dem", tiny.to_str().expect("utf-8")], 1, "at least 3 x 3"),
        (
            &["erode", "--world", "pebble", "--model", "droplets"],
            1,
            "a planet erodes with --model stream-power",
        ),
        (
            &[
                "erode",
                "--dem",
                tiny.to_str().expect("utf-8"),
                "--model",
                "stream-power",
                "--steps",
                "200000",
            ],
            1,
            "at most 100000",
        ),
    ];
    let dem = dir.join("dem.npy");
    write_dem(&dem, &[48, 48], &ripples());
    let dem = dem.to_str().expect("utf-8");
    let dials: [(&[&str], i32, &str); 5] = [
        (
            &["erode", "--dem", dem, "--model", "water-sediment", "--dial", "rian=0.1"],
            1,
            "water-sediment has no dial 'rian'; did you mean 'rain'?",
        ),
        (&["erode", "--dem", dem, "--model", "droplets", "--rain", "0.1"], 1, "droplets has no dial 'rain'"),
        (
            &["erode", "--dem", dem, "--model", "water-sediment", "--pickup", "2"],
            1,
            "water-sediment: pickup must be within 0..=1, got 2",
        ),
        (&["erode", "--dem", dem, "--preset", "gorges"], 1, "stream power takes --k, --m and --diffusion"),
        (&["erode", "--dem", dem, "--dial", "carry"], 2, "expected NAME=VALUE, got 'carry'"),
    ];
    for (args, code, expected) in cases.into_iter().chain(dials) {
        let mut all = args.to_vec();
        let out_dir = dir.join("out");
        all.extend(["--out", out_dir.to_str().expect("utf-8")]);
        let out = watershed(&all);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!out_dir.exists(), "{args:?}: wrote into the output folder");
    }
}

#[test]
fn heightmaps_in_every_format_drain_alike() {
    let dir = scratch("formats");
    let dem = dir.join("dem.npy");
    write_dem(&dem, &[48, 48], &ripples());
    let eroded = dir.join("eroded");
    let out = watershed(&[
        "erode",
        "--dem",
        dem.to_str().expect("utf-8"),
        "--steps",
        "3",
        "--out",
        eroded.to_str().expect("utf-8"),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let range: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(eroded.join("heights.r16.json")).expect("range"))
            .expect("json");
    let range_arg = format!("{},{}", range["min_m"], range["max_m"]);
    let filled = |file: &str, extra: &[&str]| {
        let out_dir = dir.join(format!("drain-{file}"));
        let path = eroded.join(file);
        let mut args = vec!["grid-drain", "--dem", path.to_str().expect("utf-8"), "--edge-outlets"];
        args.extend_from_slice(extra);
        args.extend(["--out", out_dir.to_str().expect("utf-8")]);
        let out = watershed(&args);
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        read_array2(&std::fs::read(out_dir.join("filled.npy")).expect("filled")).expect("npy").data
    };
    let (npy, exr) = (filled("heights.npy", &[]), filled("heights.exr", &[]));
    let r16 = filled("heights.r16", &["--height-range", &range_arg]);
    let step = (range["max_m"].as_f64().expect("max") - range["min_m"].as_f64().expect("min")) / 65535.0;
    assert!(
        npy.iter().zip(&exr).all(|(a, b)| (a - b).abs() < 1e-4 * a.abs().max(1.0)),
        "EXR is f32 of the same"
    );
    assert!(npy.iter().zip(&r16).all(|(a, b)| (a - b).abs() <= step), "R16 is within a step");
    let missing = watershed(&[
        "grid-drain",
        "--dem",
        eroded.join("heights.r16").to_str().expect("utf-8"),
        "--out",
        dir.join("x").to_str().expect("utf-8"),
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("16-bit heights need --height-range"));
}
