import CDRM
import MarqueeCore

/// The OSD's overlay plane on our CRTC: two ARGB8888 dumb buffers the size of the OSD picture, one
/// on screen while the other is written, and the plane's part of each atomic commit, so the OSD
/// shows, changes and hides in the same commit as the primary plane's flip.
///
/// Used on the present thread only, under the output's lock; the caller waits for the last flip
/// before `stage`, so the buffer written is never the one scanned out.
final class DRMOverlayPlane {
    let chosen: DRMOverlayPlaneChoice.Chosen
    private let device: DRMDevice
    private let crtcID: UInt32
    /// Two buffers of the staged picture's size; made again when that size changes.
    private var buffers: [DRMDumbBuffer] = []
    /// Which of `buffers` is on screen; nil when the plane shows none of them (hidden, or showing a
    /// buffer of an earlier size).
    private var front: Int?
    /// A buffer taken off screen by the last commit, not one of `buffers` (an earlier size): kept
    /// until that commit's flip has completed, since the plane scans it out until then.
    private var retired: DRMDumbBuffer?
    /// What the plane shows after the last commit; nil: hidden. Holds its buffer, which may be of
    /// an earlier size than `buffers`.
    private(set) var shown: (picture: OverlayPicture, buffer: DRMDumbBuffer)?
    /// What the next commit changes; nil: nothing.
    private var pending: Pending?
    /// The last rectangle a test-only commit found the driver takes.
    private var testedFrame: PixelRect?

    private enum Pending {
        case show(OverlayPicture, buffer: Int)
        case hide
    }

    init(device: DRMDevice, crtcID: UInt32, chosen: DRMOverlayPlaneChoice.Chosen) {
        self.device = device
        self.crtcID = crtcID
        self.chosen = chosen
    }

    var hasPendingChange: Bool { pending != nil }

    /// Writes `picture` into the buffer not on screen (nil: nothing to write, the plane is to hide),
    /// for the next commit to show. A rectangle the driver has not taken yet is asked about first
    /// with a test-only commit: a refusal throws, and nothing is staged.
    func stage(_ picture: OverlayPicture?) throws {
        // The flip that took it off screen has completed (the caller waited).
        retired = nil
        guard let picture else {
            pending = shown == nil ? nil : .hide
            return
        }
        if buffers.first?.size != picture.frame.size {
            let fresh = [try DRMDumbBuffer(device: device, size: picture.frame.size, format: .argb8888),
                         try DRMDumbBuffer(device: device, size: picture.frame.size, format: .argb8888)]
            // The one on screen, if any, stays alive in `shown` until a commit replaces it.
            buffers = fresh
            front = nil
        }
        let back = front.map { 1 - $0 } ?? 0
        if testedFrame != picture.frame {
            let request = try DRMAtomicRequest()
            try Self.addShow(chosen, crtcID: crtcID, framebufferID: buffers[back].framebufferID, frame: picture.frame, to: request)
            try request.commit(on: device, flags: marquee_drm_mode_atomic_test_only(),
                               what: "test \(chosen.name) at \(picture.frame)")
            testedFrame = picture.frame
        }
        Self.write(picture.image, into: buffers[back])
        pending = .show(picture, buffer: back)
    }

    /// Adds the staged change, if any, to a flip's request.
    func addPendingChange(to request: DRMAtomicRequest) throws {
        switch pending {
        case .show(let picture, let index)?:
            try Self.addShow(chosen, crtcID: crtcID, framebufferID: buffers[index].framebufferID, frame: picture.frame, to: request)
        case .hide?:
            try Self.addHide(chosen.properties, to: request)
        case nil:
            break
        }
    }

    /// Adds what the plane shows now to a modeset's request: the screen shown again after a VT
    /// switch comes back with its OSD (the console's own modeset turned the plane off).
    func addShownState(to request: DRMAtomicRequest) throws {
        if let shown {
            try Self.addShow(chosen, crtcID: crtcID, framebufferID: shown.buffer.framebufferID, frame: shown.picture.frame, to: request)
        } else {
            try Self.addHide(chosen.properties, to: request)
        }
    }

    /// The commit carrying the staged change went through.
    func pendingChangeCommitted() {
        if pending != nil, let old = shown?.buffer, !buffers.contains(where: { $0 === old }) { retired = old }
        switch pending {
        case .show(let picture, let index)?:
            shown = (picture, buffers[index])
            front = index
        case .hide?:
            shown = nil
            front = nil
        case nil:
            break
        }
        pending = nil
    }

    /// Gives up on the staged change (the driver refused the commit): hides the plane at the next
    /// commit if it shows something.
    func dropPendingChange() {
        pending = shown == nil ? nil : .hide
    }

    /// Gives up on changing the plane at all (the driver refused even to hide it).
    func forgetPendingChange() {
        pending = nil
    }

    /// The plane's properties for showing framebuffer `framebufferID` at `frame` of the CRTC:
    /// the whole buffer (source rectangle in 16.16 fixed point) at its own size, no scaling.
    static func addShow(_ chosen: DRMOverlayPlaneChoice.Chosen, crtcID: UInt32, framebufferID: UInt32, frame: PixelRect,
                        to request: DRMAtomicRequest) throws {
        let plane = chosen.properties
        try request.add(plane, "FB_ID", UInt64(framebufferID))
        try request.add(plane, "CRTC_ID", UInt64(crtcID))
        try request.add(plane, "SRC_X", 0)
        try request.add(plane, "SRC_Y", 0)
        try request.add(plane, "SRC_W", UInt64(frame.width) << 16)
        try request.add(plane, "SRC_H", UInt64(frame.height) << 16)
        try request.add(plane, "CRTC_X", UInt64(frame.x))
        try request.add(plane, "CRTC_Y", UInt64(frame.y))
        try request.add(plane, "CRTC_W", UInt64(frame.width))
        try request.add(plane, "CRTC_H", UInt64(frame.height))
        if let zpos = chosen.zpos { try request.add(plane, "zpos", zpos) }
        if let blend = chosen.premultipliedBlendMode { try request.add(plane, DRMOverlayPlaneChoice.blendModeName, blend) }
    }

    /// Off: no framebuffer and no CRTC (the kernel wants both cleared together).
    static func addHide(_ plane: DRMObjectProperties, to request: DRMAtomicRequest) throws {
        try request.add(plane, "FB_ID", 0)
        try request.add(plane, "CRTC_ID", 0)
    }

    /// Copies the premultiplied 0xAARRGGBB words row by row across the buffer's pitch: in memory
    /// they are B, G, R, A, which is what DRM calls ARGB8888.
    private static func write(_ image: OverlayImage, into buffer: DRMDumbBuffer) {
        let target = buffer.pixelBuffer
        let rowBytes = image.size.width * 4
        image.pixels.withUnsafeBytes { source in
            for row in 0..<image.size.height {
                (target.baseAddress + row * target.bytesPerRow).copyMemory(from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
            }
        }
    }
}
