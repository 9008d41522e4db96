//! Files from the picker, drag and drop, or the clipboard, read in the browser into content
//! blocks (`model::media` decides what they are).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::model::media::{MediaFile, admit, block_for, refusal};

/// Reads a file into a base64 content block, with an object URL to preview an image by; refused
/// before reading when it would take the `attached` media bytes over `media::MAX_MEDIA_BYTES`.
pub(crate) async fn read(file: web_sys::File, attached: usize) -> Result<MediaFile, String> {
    let name = file.name();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    admit(&name, file.size() as usize, attached)?;
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(|_| format!("{name} could not be read"))?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let mut read = block_for(&bytes, &file.type_(), &name);
    if let Some(why) = refusal(&read, &file.type_(), &name) {
        return Err(why);
    }
    read.name = Some(name);
    if read.block["type"] == "image" {
        read.preview = web_sys::Url::create_object_url_with_blob(&file).ok();
    }
    Ok(read)
}

/// The files of a `FileList`.
pub(crate) fn files(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The image files of a clipboard paste.
pub(crate) fn pasted_files(event: &web_sys::ClipboardEvent) -> Vec<web_sys::File> {
    let Some(data) = event.clipboard_data() else { return Vec::new() };
    let items = data.items();
    (0..items.length())
        .filter_map(|i| items.get(i))
        .filter(|item| item.kind() == "file")
        .filter_map(|item| item.get_as_file().ok().flatten())
        .filter(|f| f.unchecked_ref::<web_sys::Blob>().type_().starts_with("image/"))
        .collect()
}
