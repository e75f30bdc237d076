//! Python resolution rules.

use crate::facts::{Call, ValueRef};
use crate::index::{Eid, TreeIndex};
use crate::resolve::{Cx, Eval, Hierarchy, LanguageResolver, Placement, Rule};

pub struct PythonResolver;

pub static PYTHON: PythonResolver = PythonResolver;

impl LanguageResolver for PythonResolver {
    fn rules(&self) -> &'static [Rule] {
        &[]
    }
    fn call_result(&self, _cx: &Cx, _file: u32, _call: &Call, _p: &Placement) -> Option<Eval> {
        None
    }
    fn resolve_ref(&self, _cx: &Cx, _file: u32, _r: &ValueRef) -> Option<Placement> {
        None
    }
    fn bases(&self, _index: &TreeIndex, _ty: Eid) -> (Vec<Eid>, bool) {
        (Vec::new(), false)
    }
    fn lookup_order(&self, hierarchy: &Hierarchy, ty: Eid) -> Vec<Eid> {
        hierarchy.depth_first(ty)
    }
    fn pick_overload(&self, _cx: &Cx, _file: u32, _call: &Call, _c: &[Eid]) -> Option<Eid> {
        None
    }
}
