//! The PyTorch readers (the import panel's pasted JSON and dropped file, `--from-torch`): any
//! bytes are refused with a message or give a layer that imports, writes back to a state dict
//! and imports again to the same model.
#![no_main]

use attention_explorer::core::formats::multihead::{
    import_into, read_safetensors, read_state_dict_json, read_torch_file, state_dict_of_value,
    to_state_dict,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = read_safetensors(bytes);
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let _ = read_state_dict_json(text);
    if let Ok(model) = read_torch_file(text) {
        if let Ok((dict, heads)) = to_state_dict(&model) {
            let dict = state_dict_of_value(&dict).expect("a written state dict reads back");
            let again = import_into(&model, &dict, heads).expect("a written state dict imports");
            assert_eq!(again, model);
        }
    }
});
