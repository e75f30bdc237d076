//! Python policy: the families this language places with, in rule order.

use crate::resolve::family::Family;

pub const FAMILIES: &[Family] = &[];
