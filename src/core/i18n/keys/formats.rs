//! The core's refusals of a file or a script: PyTorch state dicts and modules, exported scripts, the trained models' formats.

keys! { "formats";
}
