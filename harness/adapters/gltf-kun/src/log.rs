//! gltf_kun's warnings (it logs with `tracing`, e.g. "Failed to import extensions: ...") kept
//! for the load's `notes`, so a report says what gltf_kun said; each is also written to stderr.

use std::cell::RefCell;
use std::fmt::Write as _;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

thread_local! {
    static NOTES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// A subscriber keeping every event at `WARN` or above as a note of the current thread.
#[derive(Debug)]
struct Notes;

struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if !self.0.is_empty() {
            self.0.push_str(", ");
        }
        if field.name() == "message" {
            let _ = write!(self.0, "{value:?}");
        } else {
            let _ = write!(self.0, "{}={value:?}", field.name());
        }
    }
}

impl Subscriber for Notes {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= Level::WARN
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut m = Message(String::new());
        event.record(&mut m);
        let note = format!("gltf_kun {}: {}", event.metadata().level(), m.0);
        eprintln!("{note}");
        NOTES.with(|n| n.borrow_mut().push(note));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Install the subscriber (once per process; later calls do nothing).
pub fn install() {
    let _ = tracing::subscriber::set_global_default(Notes);
}

/// The notes kept since the last call, and forget them.
pub fn take() -> Vec<String> {
    NOTES.with(|n| std::mem::take(&mut *n.borrow_mut()))
}
