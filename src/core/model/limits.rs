//! The limits every model keeps, whoever made it (typed, loaded, trained): they keep the page
//! responsive and every number finite; a saved state beyond them is refused.

use crate::core::i18n::keys::edits;
use crate::core::i18n::Msg;
use crate::core::model::tokens::Tokens;

/// Most tokens a sentence may have. These limits keep the page responsive; a state beyond them
/// is refused.
pub const MAX_TOKENS: usize = 64;
/// Most tokens a trained language model's prompt may have, with what it wrote (its pieces
/// are finer than words).
pub const MAX_PROMPT_TOKENS: usize = 128;
/// Most characters a sentence may have.
pub const MAX_SENTENCE_CHARS: usize = 1000;
/// Largest d_in, d_k and d_v.
pub const MAX_DIM: usize = 128;
/// Most heads.
pub const MAX_HEADS: usize = 16;
/// Every number's magnitude must be at most this, so scores stay finite.
pub const MAX_ABS_VALUE: f64 = 1e6;

/// Whether `x` may stand in a model: finite and within ±[`MAX_ABS_VALUE`] (a whole matrix is
/// checked by `kernels::first_outside`, the same rule).
pub fn within_limits(x: f64) -> bool {
    x.abs() <= MAX_ABS_VALUE
}

/// Tokenises a sentence within the limits: some words, at most [`MAX_SENTENCE_CHARS`]
/// characters and [`MAX_TOKENS`] tokens. The error says what is wrong with it.
pub fn check_sentence(sentence: &str) -> Result<Tokens, Msg> {
    if sentence.chars().count() > MAX_SENTENCE_CHARS {
        return Err(edits::longer_than(MAX_SENTENCE_CHARS));
    }
    let tokens = Tokens::new(sentence);
    if tokens.is_empty() {
        return Err(edits::has_no_words.into());
    }
    if tokens.len() > MAX_TOKENS {
        return Err(edits::too_many_tokens(tokens.len(), MAX_TOKENS));
    }
    Ok(tokens)
}

/// Whether `g` key/value heads can serve `heads` query heads: `g` must divide them (1 is
/// multi-query attention, `heads` itself is one key and value per head).
pub fn check_kv_heads(heads: usize, g: usize) -> Result<(), Msg> {
    kv_heads_fit(heads, g).map_err(edits::kv_heads_divide)
}

/// [`check_kv_heads`]' reason as a clause, for a reader that names the field itself.
pub fn kv_heads_fit(heads: usize, g: usize) -> Result<(), Msg> {
    if g == 0 || g > heads || !heads.is_multiple_of(g) {
        let divisors: Vec<String> = (1..=heads)
            .filter(|&d| heads.is_multiple_of(d))
            .map(|d| d.to_string())
            .collect();
        return Err(edits::must_divide(heads, divisors.join(", "), g));
    }
    Ok(())
}
