use proptest::prelude::*;

use super::*;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/images/");

/// Images made by Pillow (scripts/gen-image-fixtures.py), with the size they were made at.
const FIXTURES: &[(&str, ImageFormat, u32, u32)] = &[
    ("png-wide-9000x100.png", ImageFormat::Png, 9000, 100),
    ("png-gray-1x1.png", ImageFormat::Png, 1, 1),
    ("png-tall-100x8001.png", ImageFormat::Png, 100, 8001),
    ("jpeg-baseline-640x480.jpg", ImageFormat::Jpeg, 640, 480),
    ("jpeg-progressive-300x200.jpg", ImageFormat::Jpeg, 300, 200),
    ("jpeg-gray-17x33.jpg", ImageFormat::Jpeg, 17, 33),
    ("jpeg-exif-120x80.jpg", ImageFormat::Jpeg, 120, 80),
    ("gif-17x9.gif", ImageFormat::Gif, 17, 9),
    ("webp-lossy-33x21.webp", ImageFormat::Webp, 33, 21),
    ("webp-lossless-45x30.webp", ImageFormat::Webp, 45, 30),
    ("webp-extended-9000x100.webp", ImageFormat::Webp, 9000, 100),
    ("webp-exif-64x48.webp", ImageFormat::Webp, 64, 48),
];

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).expect("a committed test image")
}

fn encode(bytes: &[u8]) -> String {
    crate::base64::encode(bytes)
}

#[test]
fn reads_each_format_from_bytes_and_from_base64() {
    for &(name, format, width, height) in FIXTURES {
        let bytes = fixture(name);
        let expected = Ok(Dimensions { format, width, height });
        assert_eq!(dimensions(&bytes), expected, "{name}");
        assert_eq!(dimensions_base64(&encode(&bytes)), expected, "{name} as base64");
    }
}

#[test]
fn the_fixtures_cover_every_header_kind() {
    let jpeg_frames: Vec<u8> = ["jpeg-baseline-640x480.jpg", "jpeg-progressive-300x200.jpg"]
        .iter()
        .map(|name| {
            let bytes = fixture(name);
            let at = bytes.windows(2).position(|w| w[0] == 0xFF && matches!(w[1], 0xC0 | 0xC2)).expect("a frame");
            bytes[at + 1]
        })
        .collect();
    assert_eq!(jpeg_frames, [0xC0, 0xC2], "baseline and progressive frames");
    let exif = fixture("jpeg-exif-120x80.jpg");
    assert_eq!(&exif[20..30], b"\xff\xe1\x7b\x30Exif\0\0", "EXIF (APP1) after JFIF (APP0), before the frame");
    assert!(u16::from_be_bytes([exif[22], exif[23]]) > 30_000, "a large EXIF segment");
    let chunks: Vec<Vec<u8>> = ["webp-lossy-33x21.webp", "webp-lossless-45x30.webp", "webp-extended-9000x100.webp"]
        .iter()
        .map(|name| fixture(name)[12..16].to_vec())
        .collect();
    assert_eq!(chunks, [b"VP8 ".to_vec(), b"VP8L".to_vec(), b"VP8X".to_vec()]);
}

/// A JPEG with `segments` APP1 segments of the largest size before its frame header.
fn jpeg_with_large_segments(segments: usize) -> Vec<u8> {
    let small = fixture("jpeg-gray-17x33.jpg");
    let mut out = small[..2].to_vec();
    for i in 0..segments {
        out.extend_from_slice(&[0xFF, 0xE1, 0xFF, 0xFF]);
        out.extend(std::iter::repeat_n(u8::try_from(i % 251).unwrap(), 0xFFFF - 2));
    }
    out.extend_from_slice(&small[2..]);
    out
}

#[test]
fn a_frame_header_after_megabytes_of_segments_is_found_without_decoding_them() {
    let bytes = jpeg_with_large_segments(40); // 2.6 MB before the frame header
    let expected = Ok(Dimensions { format: ImageFormat::Jpeg, width: 17, height: 33 });
    assert_eq!(dimensions(&bytes), expected);
    let mut text = encode(&bytes).into_bytes();
    // Spoil the base64 inside every skipped segment: only the markers' bytes are decoded.
    for segment in 0..40usize {
        let start = 2 + segment * (0xFFFF + 2) + 4; // the segment's body
        let quad = start.div_ceil(3) * 4;
        text[quad..quad + 4000].fill(b'!');
    }
    let text = String::from_utf8(text).unwrap();
    assert_eq!(dimensions_base64(&text), expected);
}

#[test]
fn fill_bytes_and_standalone_markers_before_the_frame_header() {
    let small = fixture("jpeg-gray-17x33.jpg");
    let mut bytes = small[..2].to_vec();
    bytes.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFE, 0x00, 0x04, b'h', b'i']); // fill, then COM
    bytes.extend_from_slice(&[0xFF, 0x01]); // TEM, no length
    bytes.extend_from_slice(&small[2..]);
    assert_eq!(dimensions(&bytes), Ok(Dimensions { format: ImageFormat::Jpeg, width: 17, height: 33 }));
}

#[test]
fn a_jpeg_walk_gives_up_after_its_bound() {
    let small = fixture("jpeg-gray-17x33.jpg");
    // Its segments: APP0, DQT, then the frame header.
    assert_eq!([small[3], small[5 + usize::from(small[5])]], [0xE0, 0xDB]);
    let with_comments = |n: usize| {
        let comments = [0xFF, 0xFE, 0x00, 0x02].repeat(n); // empty
        [&small[..2], &comments, &small[2..]].concat()
    };
    let found = dimensions(&with_comments(MAX_JPEG_SEGMENTS - 3));
    assert_eq!(found.map(|d| (d.width, d.height)), Ok((17, 33)));
    assert_eq!(dimensions(&with_comments(MAX_JPEG_SEGMENTS - 2)), Err(HeaderError::Unknown));
}

/// Hand-built headers that break their format's rules.
#[test]
fn malformed_headers_are_reported() {
    let png = |ihdr: &[u8]| [b"\x89PNG\r\n\x1a\n".as_slice(), ihdr, &[0; 8]].concat();
    let sof = |h: u16, w: u16| {
        let [h0, h1] = h.to_be_bytes();
        let [w0, w1] = w.to_be_bytes();
        vec![0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, h0, h1, w0, w1, 1, 1, 0x11, 0]
    };
    let cases: &[(&str, Vec<u8>, HeaderError)] = &[
        ("empty", vec![], HeaderError::UnknownFormat),
        ("text", b"hello, world".to_vec(), HeaderError::UnknownFormat),
        ("a cut PNG signature", b"\x89PN".to_vec(), HeaderError::Truncated),
        ("PNG without IHDR", png(b"\0\0\0\x0dIDAT\0\0\0\x01\0\0\0\x01"), HeaderError::Malformed),
        ("PNG 0 wide", png(b"\0\0\0\x0dIHDR\0\0\0\0\0\0\0\x01"), HeaderError::Malformed),
        ("PNG over 2^31", png(b"\0\0\0\x0dIHDR\x80\0\0\0\0\0\0\x01"), HeaderError::Malformed),
        ("PNG cut in IHDR", b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0".to_vec(), HeaderError::Truncated),
        ("JPEG 0 wide", sof(10, 0), HeaderError::Malformed),
        ("JPEG height in a DNL", sof(0, 10), HeaderError::Unknown),
        ("JPEG scan before frame", vec![0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0, 0, 0, 0, 0, 0], HeaderError::Malformed),
        ("JPEG no marker", vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0x12, 0, 0, 0, 0, 0], HeaderError::Malformed),
        ("JPEG length 1", vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 1, 0, 0, 0, 0, 0, 0], HeaderError::Malformed),
        ("JPEG cut", vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0, 0, 0, 0, 0, 0], HeaderError::Truncated),
        ("GIF 0 high", b"GIF89a\x05\0\0\0\0\0\0".to_vec(), HeaderError::Malformed),
        ("WebP unknown chunk", b"RIFF\0\0\0\0WEBPABCD\0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec(), HeaderError::Malformed),
        (
            "VP8 without start code",
            b"RIFF\0\0\0\0WEBPVP8 \0\0\0\0\0\0\0\0\0\0\0\0\0\0".to_vec(),
            HeaderError::Malformed,
        ),
        ("VP8L version 1", b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f\0\0\0\x20".to_vec(), HeaderError::Malformed),
        ("VP8X cut", b"RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0".to_vec(), HeaderError::Truncated),
    ];
    // The same frame header with a size: the rest of the file is not needed.
    assert_eq!(dimensions(&sof(2, 3)).map(|d| (d.width, d.height)), Ok((3, 2)));
    for (what, bytes, expected) in cases {
        assert_eq!(dimensions(bytes), Err(*expected), "{what}");
        assert_eq!(dimensions_base64(&encode(bytes)), Err(*expected), "{what} as base64");
    }
}

#[test]
fn base64_that_is_not_base64_where_the_header_is() {
    assert_eq!(dimensions_base64("iVBO!!!!"), Err(HeaderError::InvalidBase64));
    assert_eq!(dimensions_base64("data:image/png;base64,iVBORw0KGgo="), Err(HeaderError::InvalidBase64));
    assert_eq!(dimensions_base64("iVBORw=="), Err(HeaderError::Truncated));
    assert_eq!(dimensions_base64("é"), Err(HeaderError::InvalidBase64));
}

#[test]
fn every_cut_of_an_image_is_its_size_or_truncated() {
    for &(name, format, width, height) in FIXTURES {
        let bytes = fixture(name);
        for cut in 0..bytes.len().min(400) {
            let got = dimensions(&bytes[..cut]);
            let whole = Ok(Dimensions { format, width, height });
            let short = if cut == 0 { HeaderError::UnknownFormat } else { HeaderError::Truncated };
            assert!(got == whole || got == Err(short), "{name} cut at {cut}: {got:?}");
            assert_eq!(dimensions_base64(&encode(&bytes[..cut])), got, "{name} cut at {cut} as base64");
        }
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic_and_base64_agrees(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let raw = dimensions(&bytes);
        prop_assert_eq!(dimensions_base64(&encode(&bytes)), raw);
    }

    #[test]
    fn arbitrary_headers_never_panic(
        signature in prop_oneof![
            Just(b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec()),
            Just(vec![0xFF, 0xD8, 0xFF]),
            Just(b"GIF89a".to_vec()),
            Just(b"RIFF\0\0\0\0WEBPVP8 ".to_vec()),
            Just(b"RIFF\0\0\0\0WEBPVP8L".to_vec()),
            Just(b"RIFF\0\0\0\0WEBPVP8X".to_vec()),
        ],
        rest in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let bytes = [signature, rest].concat();
        let raw = dimensions(&bytes);
        if let Ok(size) = raw {
            prop_assert!(size.width > 0 && size.height > 0);
        }
        prop_assert_eq!(dimensions_base64(&encode(&bytes)), raw);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        if let Ok(size) = dimensions_base64(&text) {
            prop_assert!(size.width > 0 && size.height > 0);
        }
    }
}
