import CDRM
import Glibc
import MarqueeCore

/// Owns one 32-bit scanout buffer (XRGB8888 for the picture, ARGB8888 for an overlay plane): the
/// dumb buffer, its CPU mapping and its framebuffer id, released in reverse order.
final class DRMDumbBuffer {
    /// How the framebuffer reads the buffer's 32-bit pixels; both are B, G, R, X/A in memory.
    enum Format {
        case xrgb8888, argb8888

        var fourcc: UInt32 {
            switch self {
            case .xrgb8888: marquee_drm_format_xrgb8888()
            case .argb8888: marquee_drm_format_argb8888()
            }
        }
    }

    private let device: DRMDevice
    private let handle: UInt32
    private let mapping: UnsafeMutableRawPointer
    private let byteCount: Int
    let framebufferID: UInt32
    let size: PixelSize
    /// Rows are padded to the driver's pitch, not width * 4.
    let pitch: Int

    init(device: DRMDevice, size: PixelSize, format: Format = .xrgb8888) throws(SystemError) {
        self.device = device
        self.size = size
        var handle: UInt32 = 0, pitch: UInt32 = 0, byteCount: UInt64 = 0
        try drmChecked(drmModeCreateDumbBuffer(device.fd, UInt32(size.width), UInt32(size.height), 32, 0,
                                               &handle, &pitch, &byteCount), "drmModeCreateDumbBuffer(\(size))")
        // From here each step undoes the earlier ones itself when it fails: deinit runs only for
        // a fully made buffer.
        var offset: UInt64 = 0
        do {
            try drmChecked(drmModeMapDumbBuffer(device.fd, handle, &offset), "drmModeMapDumbBuffer(\(handle))")
        } catch {
            drmModeDestroyDumbBuffer(device.fd, handle)
            throw error
        }
        let mapping = mmap(nil, Int(byteCount), PROT_READ | PROT_WRITE, MAP_SHARED, device.fd, off_t(offset))
        guard let mapping, mapping != MAP_FAILED else {
            let code = errno
            drmModeDestroyDumbBuffer(device.fd, handle)
            throw SystemError(code: code, operation: "mmap(dumb buffer \(handle), \(byteCount) bytes)")
        }
        let handles: [UInt32] = [handle, 0, 0, 0], pitches: [UInt32] = [pitch, 0, 0, 0], offsets: [UInt32] = [0, 0, 0, 0]
        var framebufferID: UInt32 = 0
        let added = drmModeAddFB2(device.fd, UInt32(size.width), UInt32(size.height), format.fourcc,
                                  handles, pitches, offsets, &framebufferID, 0)
        do {
            try drmChecked(added, "drmModeAddFB2(\(size) \(format))")
        } catch {
            munmap(mapping, Int(byteCount))
            drmModeDestroyDumbBuffer(device.fd, handle)
            throw error
        }
        self.handle = handle
        self.mapping = mapping
        self.byteCount = Int(byteCount)
        self.pitch = Int(pitch)
        self.framebufferID = framebufferID
    }

    deinit {
        // Removing a framebuffer that is still scanned out switches its CRTC off; the output
        // restores the saved CRTC before it lets its buffers go.
        drmModeRmFB(device.fd, framebufferID)
        munmap(mapping, byteCount)
        drmModeDestroyDumbBuffer(device.fd, handle)
    }

    var pixelBuffer: PixelBuffer {
        PixelBuffer(baseAddress: mapping, bytesPerRow: pitch, size: size)
    }
}

extension DRMDumbBuffer: PixelStorage {
    func withPixelBuffer<Result>(_ body: (PixelBuffer) throws -> Result) rethrows -> Result {
        try body(pixelBuffer)
    }
}
