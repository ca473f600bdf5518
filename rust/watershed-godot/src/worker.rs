//! One build at a time on a worker thread, for the nodes that build something heavy
//! (`PlanetHeight`'s ground, `DrainageSolver`'s world): progress and the result come back
//! as messages for the main thread, and a new build cancels the running one and starts
//! only once it has stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What a build reports.
pub enum Report<T> {
    /// A stage finished: its name and the share of the build done, 0..=1.
    Progress(&'static str, f64),
    /// The build is done.
    Done(T),
}

/// The worker thread of one node.
pub struct Worker<T> {
    pending: Option<Receiver<Report<T>>>,
    /// Set to stop the running build at its next stage.
    cancel: Arc<AtomicBool>,
    /// The thread of the running (or last) build.
    thread: Option<JoinHandle<()>>,
}

impl<T> Default for Worker<T> {
    fn default() -> Self {
        Worker { pending: None, cancel: Arc::new(AtomicBool::new(false)), thread: None }
    }
}

impl<T: Send + 'static> Worker<T> {
    /// Cancels the running build and starts `build` (called with a progress callback and
    /// the cancel flag; `None` when it gave up) once that one has stopped.
    pub fn start<F>(&mut self, build: F)
    where
        F: FnOnce(&(dyn Fn(&'static str, f64) + Sync), &AtomicBool) -> Option<T> + Send + 'static,
    {
        self.cancel();
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = cancel.clone();
        let superseded = self.thread.take();
        let (tx, rx) = channel();
        self.pending = Some(rx);
        self.thread = Some(std::thread::spawn(move || {
            if let Some(previous) = superseded {
                let _ = previous.join();
            }
            let progress = tx.clone();
            let report = move |stage, done| {
                let _ = progress.send(Report::Progress(stage, done));
            };
            if let Some(result) = build(&report, &cancel) {
                let _ = tx.send(Report::Done(result));
            }
        }));
    }

    /// Stops the running build at its next stage and forgets its reports.
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
        self.pending = None;
    }

    /// Whether a build is running (its result not yet taken).
    pub fn is_running(&self) -> bool {
        self.pending.is_some()
    }

    /// The reports in so far, without waiting; the build counts as finished after `Done`.
    pub fn reports(&mut self) -> Vec<Report<T>> {
        let reports: Vec<Report<T>> =
            self.pending.as_ref().map_or_else(Vec::new, |rx| rx.try_iter().collect());
        if reports.iter().any(|r| matches!(r, Report::Done(_))) {
            self.pending = None;
        }
        reports
    }

    /// The next report, waiting for it; `None` when no build is running or it gave up.
    pub fn wait(&mut self) -> Option<Report<T>> {
        let report = self.pending.as_ref()?.recv().ok();
        if !matches!(report, Some(Report::Progress(..))) {
            self.pending = None;
        }
        report
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}
