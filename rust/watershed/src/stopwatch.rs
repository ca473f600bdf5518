//! Lap times of a build's stages, for `report.json`'s timings and the benches.

/// Lap times of the stages of one build.
pub(crate) struct Stopwatch {
    last: std::time::Instant,
    /// Stage names and their milliseconds, in order.
    pub laps: Vec<(&'static str, f64)>,
}

impl Stopwatch {
    pub(crate) fn start() -> Self {
        Stopwatch { last: std::time::Instant::now(), laps: Vec::new() }
    }

    /// Restarts the clock without recording a lap (after laps were copied in from elsewhere).
    pub(crate) fn lap_from_here(&mut self) {
        self.last = std::time::Instant::now();
    }

    pub(crate) fn lap(&mut self, stage: &'static str) {
        let now = std::time::Instant::now();
        self.laps.push((stage, (now - self.last).as_secs_f64() * 1e3));
        self.last = now;
    }
}
