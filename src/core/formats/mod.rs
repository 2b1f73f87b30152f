//! What goes in and out: the saved state ([`state`]), links ([`link`]), PyTorch state dicts
//! ([`multihead`]) and scripts ([`pytorch`]), the trace as JSON and Markdown ([`report`]), and
//! SCORM packages ([`scorm`]); a trained model's layer as what opens it again ([`trained`]); the
//! words the page's scripts share with the core ([`contract`], gathered by [`boot`]).

pub mod boot;
pub mod contract;
pub mod link;
pub mod multihead;
pub mod pytorch;
pub mod report;
pub mod scorm;
pub mod state;
pub mod trained;
