//! `watershed bench`: figures for performance claims, printed, never asserted.

use std::hint::black_box;
use std::time::Instant;
use watershed::{PlanetHeight, WorldSettings};

/// A stage that can be measured.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Stage {
    /// Full ground height evaluations per second per core.
    Height,
}

/// Runs the benchmark for `stage` and prints its figure.
pub fn run(stage: Stage, world: &WorldSettings, samples: usize, runs: usize) {
    match stage {
        Stage::Height => height(world, samples.max(1), runs.max(1)),
    }
}

fn height(world: &WorldSettings, samples: usize, runs: usize) {
    let planet = PlanetHeight::new(world);
    let dirs: Vec<_> = (0..samples)
        .map(|i| watershed::fibonacci(i, samples))
        .collect();
    let median = |mut rates: Vec<f64>| {
        rates.sort_by(f64::total_cmp);
        rates[rates.len() / 2]
    };
    let single: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let mut sum = 0.0;
            for &d in &dirs {
                sum += planet.height(black_box(d));
            }
            black_box(sum);
            samples as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    let parallel: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(planet.heights(&dirs));
            samples as f64 / t.elapsed().as_secs_f64()
        })
        .collect();
    println!(
        "height  world {}  {} directions x {} runs (median)",
        world.name, samples, runs
    );
    println!(
        "height  single thread: {:.0} evaluations/s per core",
        median(single)
    );
    println!(
        "height  all {} threads: {:.0} evaluations/s",
        rayon::current_num_threads(),
        median(parallel)
    );
}
