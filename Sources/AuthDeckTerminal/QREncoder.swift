import Glibc
import AuthDeckUI

/// Encodes text as a QR code with libqrencode, loaded at run time.
///
/// Loaded with `dlopen` rather than linked: the QR code is a convenience on the device-code
/// modal, and a machine without `libqrencode4` should still run authdeck, just without it.
public enum QREncoder {
    /// `QRcode *QRcode_encodeString(const char *, int version, QRecLevel, QRencodeMode, int casesensitive)`
    private typealias EncodeString = @convention(c) (UnsafePointer<CChar>, Int32, Int32, Int32, Int32) -> UnsafeMutableRawPointer?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    // @unchecked: a C boundary — dlopen'ed function pointers, set once and only called.
    private struct Library: @unchecked Sendable {
        let encode: EncodeString
        let free: Free
    }

    private static let library: Library? = {
        for name in ["libqrencode.so.4", "libqrencode.so"] {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            guard let e = dlsym(handle, "QRcode_encodeString"), let f = dlsym(handle, "QRcode_free") else { continue }
            return Library(encode: unsafeBitCast(e, to: EncodeString.self), free: unsafeBitCast(f, to: Free.self))
        }
        return nil
    }()

    /// Whether libqrencode could be loaded.
    public static var isAvailable: Bool { library != nil }

    /// The QR code of `text` (error correction level M, 8-bit mode, smallest version that
    /// fits), or nil when libqrencode is missing or the text is too long for a QR code.
    public static func encode(_ text: String) -> QRMatrix? {
        guard let library, !text.isEmpty else { return nil }
        let levelM: Int32 = 1, mode8bit: Int32 = 2
        guard let code = text.withCString({ library.encode($0, 0, levelM, mode8bit, 1) }) else { return nil }
        defer { library.free(code) }
        // struct QRcode { int version; int width; unsigned char *data; } — bit 0 of each byte is "dark".
        let width = Int(code.load(fromByteOffset: 4, as: Int32.self))
        guard width > 0, width <= 177, let data = code.load(fromByteOffset: 8, as: UnsafePointer<UInt8>?.self) else { return nil }
        return QRMatrix(size: width, dark: (0..<(width * width)).map { data[$0] & 1 == 1 })
    }
}
