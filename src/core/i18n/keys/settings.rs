//! The settings and tools: the edit bar, sizes, save and load, import and export, Copy as PyTorch, the page's own messages, and the core's messages about numbers, saved states and links.

keys! { "settings";
}
