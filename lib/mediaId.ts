// The form of an uploaded image's or marker's id, in the browser and on the server alike (the
// popup's photo, a point's custom marker, the list's swatch, an upload's answer).
export const MEDIA_ID = /^[A-Za-z0-9_-]{4,64}$/;
