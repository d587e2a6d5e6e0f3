import CDRM
import Foundation
import MarqueeCore

/// Screenshots through a writeback connector: the display controller writes the picture it
/// composed (the primary plane with the OSD's overlay plane over it) into a buffer of ours, so the
/// copy is what the screen shows, not a software guess at it.
///
/// One capture is three steps: a commit attaching the connector to the CRTC with WRITEBACK_FB_ID
/// (a fresh XRGB8888 dumb buffer of the mode's size) and WRITEBACK_OUT_FENCE_PTR; a bounded wait on
/// the out-fence; a commit detaching it (CRTC_ID 0). Attaching or detaching a connector is a
/// routing change, which the kernel's atomic helpers (drm_atomic_helper_check_modeset in 6.1, used
/// by vkms) count as a modeset: where the driver refuses it without ALLOW_MODESET, both commits
/// carry it (`needsModeset`), the mode and planes unchanged.
final class DRMWritebackCapture {
    private let device: DRMDevice
    let connector: DRMObjectProperties
    /// The CRTC it was chosen for: a screen made again on another CRTC (after a hotplug) may not be
    /// one this connector can capture.
    let crtcID: UInt32
    /// Whether attaching and detaching need ALLOW_MODESET on this driver, found at open with
    /// test-only commits.
    let needsModeset: Bool
    /// The composed picture comes at the next vblank on hardware; vkms composes in software, which
    /// under QEMU's TCG took ~450 ms (measured) on a loaded machine. A driver that never writes
    /// back stalls the present thread this long once: the output copies the front buffer after.
    static let fenceTimeoutMilliseconds: Int32 = 1000
    /// Screens sharing a card could reach for one connector at once.
    private static let oneAtATime = NSLock()

    var id: UInt32 { connector.objectID }

    private var commitFlags: UInt32 { needsModeset ? marquee_drm_mode_atomic_allow_modeset() : 0 }

    private init(device: DRMDevice, connector: DRMObjectProperties, crtcID: UInt32, needsModeset: Bool) {
        self.device = device
        self.connector = connector
        self.crtcID = crtcID
        self.needsModeset = needsModeset
    }

    /// The writeback connector for CRTC `crtcID` (the card's `crtcIndex`-th) on an fd with atomic
    /// modesetting on, or why there is none.
    static func open(device: DRMDevice, crtcID: UInt32, crtcIndex: Int) -> Result<DRMWritebackCapture, DRMRefusal> {
        let connectors: [DRMWritebackConnectorFacts]
        do {
            connectors = try DRMWritebackConnectorReader.read(device: device)
        } catch {
            return .failure(DRMRefusal(operation: "writeback", reason: "\(error)"))
        }
        switch DRMWritebackConnectorChoice.choose(from: connectors, crtcID: crtcID, crtcIndex: crtcIndex) {
        case .none(let reason):
            return .failure(DRMRefusal(operation: "writeback", reason: reason))
        case .connector(let chosen):
            // Attached alone, no buffer: what the routing change costs, without writing anything.
            let attachTest = { (flags: UInt32) throws in
                let request = try DRMAtomicRequest()
                try request.add(chosen.properties, "CRTC_ID", UInt64(crtcID))
                try request.commit(on: device, flags: flags | marquee_drm_mode_atomic_test_only(),
                                   what: "test attaching writeback connector \(chosen.id) to CRTC \(crtcID)")
            }
            if (try? attachTest(0)) != nil {
                return .success(DRMWritebackCapture(device: device, connector: chosen.properties, crtcID: crtcID, needsModeset: false))
            }
            do {
                try attachTest(marquee_drm_mode_atomic_allow_modeset())
            } catch {
                return .failure(DRMRefusal(operation: "writeback connector \(chosen.id)", reason: "the driver refuses to attach it: \(error)"))
            }
            return .success(DRMWritebackCapture(device: device, connector: chosen.properties, crtcID: crtcID, needsModeset: true))
        }
    }

    /// The picture the CRTC scans out at `modeSize`, as composed. The caller has waited for the
    /// CRTC's pending flip: the attach commit must not race a flip of ours.
    func capture(modeSize: PixelSize) throws -> Canvas {
        Self.oneAtATime.lock()
        defer { Self.oneAtATime.unlock() }
        // Made for each capture: a screenshot is rare, and the buffer costs a whole frame of memory.
        let buffer = try DRMDumbBuffer(device: device, size: modeSize)
        let fenceSlot = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        fenceSlot.pointee = -1
        defer { fenceSlot.deallocate() }
        let attach = try Self.attachRequest(connector, crtcID: crtcID, framebufferID: buffer.framebufferID, fenceSlot: fenceSlot)
        let what = "writeback connector \(id) on CRTC \(crtcID)"
        try attach.commit(on: device, flags: commitFlags, what: "attach \(what)")
        let written: Result<Bool, SystemError>
        do {
            let fence = try DRMOutFence(fd: fenceSlot.pointee, what: "attach \(what)")
            written = .success(try fence.wait(timeoutMilliseconds: Self.fenceTimeoutMilliseconds))
        } catch {
            written = .failure(error)
        }
        // Detached whatever the wait gave: a connector left on the CRTC would make every later
        // capture's attach a no-op routing and the console's restore a modeset with it.
        try Self.detachRequest(connector).commit(on: device, flags: commitFlags, what: "detach \(what)")
        guard try written.get() else {
            throw SystemError(code: ETIMEDOUT, operation: "waiting \(Self.fenceTimeoutMilliseconds) ms for the out-fence of \(what)")
        }
        // The buffer is written once the fence signalled; the kernel's reference to it ended with the job.
        return Canvas(copying: buffer.pixelBuffer)
    }

    /// The connector on the CRTC with a buffer to write and where the kernel is to put the
    /// out-fence's fd (`fenceSlot` must outlive the commit).
    static func attachRequest(_ connector: DRMObjectProperties, crtcID: UInt32, framebufferID: UInt32,
                              fenceSlot: UnsafeMutablePointer<Int32>) throws -> DRMAtomicRequest {
        let request = try DRMAtomicRequest()
        try request.add(connector, "CRTC_ID", UInt64(crtcID))
        try request.add(connector, "WRITEBACK_FB_ID", UInt64(framebufferID))
        try request.add(connector, "WRITEBACK_OUT_FENCE_PTR", UInt64(UInt(bitPattern: fenceSlot)))
        return request
    }

    /// Off the CRTC. No WRITEBACK_FB_ID: a new state starts without a job, and a buffer with no
    /// CRTC is refused.
    static func detachRequest(_ connector: DRMObjectProperties) throws -> DRMAtomicRequest {
        let request = try DRMAtomicRequest()
        try request.add(connector, "CRTC_ID", 0)
        return request
    }
}
