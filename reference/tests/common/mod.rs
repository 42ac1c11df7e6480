//! What the integration tests share. Each test binary includes this module and uses a part of it.

#![allow(dead_code)]

pub mod files;
pub mod pose;
