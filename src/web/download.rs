//! Files made on the page (a picture, a recording) offered to the user as downloads.

/// Offers `bytes` to the user as a download named `name` (a recording made on the page).
pub fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let fail = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes).into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into::<web_sys::HtmlElement>()
        .map_err(|_| "not an element".to_string())?;
    link.set_attribute("href", &url).map_err(fail)?;
    link.set_attribute("download", name).map_err(fail)?;
    link.click();
    web_sys::Url::revoke_object_url(&url).map_err(fail)
}
