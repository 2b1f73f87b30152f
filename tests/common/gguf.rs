//! Small GGUF files written for tests and the fuzzer's seeds: a tiny Llama (two heads sharing one
//! key/value head, a byte-level vocabulary with a few merges) whose parts a test can change.

use attention_explorer::core::decoder::bpe::byte_chars;

/// A metadata value as GGUF writes it: its type number and bytes.
pub struct Meta(pub u32, pub Vec<u8>);

pub fn text(s: &str) -> Meta {
    Meta(8, text_bytes(s))
}

fn text_bytes(s: &str) -> Vec<u8> {
    let mut out = (s.len() as u64).to_le_bytes().to_vec();
    out.extend(s.as_bytes());
    out
}

pub fn uint(n: u32) -> Meta {
    Meta(4, n.to_le_bytes().to_vec())
}

pub fn float(x: f32) -> Meta {
    Meta(6, x.to_le_bytes().to_vec())
}

pub fn texts(items: &[String]) -> Meta {
    let mut out = 8u32.to_le_bytes().to_vec();
    out.extend((items.len() as u64).to_le_bytes());
    for s in items {
        out.extend(text_bytes(s));
    }
    Meta(9, out)
}

pub fn ints(items: &[i32]) -> Meta {
    let mut out = 5u32.to_le_bytes().to_vec();
    out.extend((items.len() as u64).to_le_bytes());
    for n in items {
        out.extend(n.to_le_bytes());
    }
    Meta(9, out)
}

/// A tensor: its name, GGUF dimensions (fastest first), GGML type and bytes.
pub struct Tensor(pub String, pub Vec<u64>, pub u32, pub Vec<u8>);

/// The bytes of a GGUF v3 file of `metadata` and `tensors` (aligned to 32).
pub fn file(metadata: &[(String, Meta)], tensors: &[Tensor]) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend((tensors.len() as u64).to_le_bytes());
    out.extend((metadata.len() as u64).to_le_bytes());
    for (key, Meta(kind, bytes)) in metadata {
        out.extend(text_bytes(key));
        out.extend(kind.to_le_bytes());
        out.extend(bytes);
    }
    let mut offset = 0u64;
    for Tensor(name, dims, kind, bytes) in tensors {
        out.extend(text_bytes(name));
        out.extend((dims.len() as u32).to_le_bytes());
        for d in dims {
            out.extend(d.to_le_bytes());
        }
        out.extend(kind.to_le_bytes());
        out.extend(offset.to_le_bytes());
        offset += (bytes.len() as u64).div_ceil(32) * 32;
    }
    out.resize(out.len().div_ceil(32) * 32, 0);
    for Tensor(_, _, _, bytes) in tensors {
        out.extend(bytes);
        out.resize(out.len().div_ceil(32) * 32, 0);
    }
    out
}

/// F32 numbers, small and varied.
fn numbers(n: usize, salt: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| ((((i * 7 + salt * 13) % 17) as f32 - 8.0) / 40.0).to_le_bytes())
        .collect()
}

/// The metadata and tensors of a tiny Llama: width 64, two heads of 32 sharing one key/value
/// head, one layer, a feed-forward of 32, the 256 byte tokens, "Ġt", "he" and an end token.
pub fn tiny_llama() -> (Vec<(String, Meta)>, Vec<Tensor>) {
    let mut tokens: Vec<String> = byte_chars().iter().map(char::to_string).collect();
    tokens.extend(["Ġt".to_owned(), "he".to_owned(), "<|endoftext|>".to_owned()]);
    let mut types = vec![1; tokens.len()];
    *types.last_mut().unwrap() = 3;
    let vocabulary = tokens.len() as u64;
    let metadata = vec![
        ("general.architecture".to_owned(), text("llama")),
        ("llama.block_count".to_owned(), uint(1)),
        ("llama.embedding_length".to_owned(), uint(64)),
        ("llama.feed_forward_length".to_owned(), uint(32)),
        ("llama.attention.head_count".to_owned(), uint(2)),
        ("llama.attention.head_count_kv".to_owned(), uint(1)),
        ("llama.rope.freq_base".to_owned(), float(10_000.0)),
        ("llama.rope.dimension_count".to_owned(), uint(32)),
        (
            "llama.attention.layer_norm_rms_epsilon".to_owned(),
            float(1e-5),
        ),
        ("tokenizer.ggml.model".to_owned(), text("gpt2")),
        ("tokenizer.ggml.tokens".to_owned(), texts(&tokens)),
        ("tokenizer.ggml.token_type".to_owned(), ints(&types)),
        (
            "tokenizer.ggml.merges".to_owned(),
            texts(&["Ġ t".to_owned(), "h e".to_owned()]),
        ),
    ];
    let matrix = |name: &str, rows: u64, cols: u64, salt: usize| {
        Tensor(
            name.to_owned(),
            vec![cols, rows],
            0,
            numbers((rows * cols) as usize, salt),
        )
    };
    let tensors = vec![
        matrix("token_embd.weight", vocabulary, 64, 1),
        Tensor("blk.0.attn_norm.weight".into(), vec![64], 0, numbers(64, 2)),
        matrix("blk.0.attn_q.weight", 64, 64, 3),
        matrix("blk.0.attn_k.weight", 32, 64, 4),
        matrix("blk.0.attn_v.weight", 32, 64, 5),
        matrix("blk.0.attn_output.weight", 64, 64, 6),
        Tensor("blk.0.ffn_norm.weight".into(), vec![64], 0, numbers(64, 7)),
        matrix("blk.0.ffn_gate.weight", 32, 64, 8),
        matrix("blk.0.ffn_up.weight", 32, 64, 9),
        matrix("blk.0.ffn_down.weight", 64, 32, 10),
        Tensor("output_norm.weight".into(), vec![64], 0, numbers(64, 11)),
    ];
    (metadata, tensors)
}
