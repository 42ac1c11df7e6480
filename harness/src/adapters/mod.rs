//! Adapters: implementations of the [`Implementation`](crate::implementation::Implementation)
//! interface.

pub mod stdio;
