import CDRM
import Glibc
import MarqueeCore

/// Owns one open DRM card's file descriptor; every other DRM owner keeps its device alive, so the
/// fd is closed only after the buffers and blobs made on it are gone.
final class DRMDevice {
    let fd: Int32
    let path: String
    /// The flip completions of every CRTC driven through this fd, each to its own screen.
    let flipEvents: DRMFlipEventDemultiplexer
    /// Which screen drives which CRTC, so two screens on one card never pick the same one.
    let crtcClaims = DRMCrtcClaims()

    init(path: String) throws(SystemError) {
        let fd = try SystemCall.retrying("open", path: path) { open(path, O_RDWR | O_CLOEXEC) }
        self.fd = fd
        self.path = path
        // Made here, not lazily: present threads of several screens reach for it at once.
        flipEvents = DRMFlipEventDemultiplexer { timeout in
            DRMFlipEventReader.read(fd: fd, path: path, timeoutMilliseconds: timeout)
        }
    }

    deinit {
        close(fd)
    }

    /// The first opener of a card is master already; anyone else (a second player, a compositor
    /// still running) must ask, and fails with EBUSY/EACCES while another master holds it.
    func becomeMaster() throws(SystemError) {
        if drmIsMaster(fd) != 0 { return }
        try drmChecked(drmSetMaster(fd), "drmSetMaster(\(path))")
    }

    func dropMaster() throws(SystemError) {
        try drmChecked(drmDropMaster(fd), "drmDropMaster(\(path))")
    }

    /// Atomic implies universal planes; false when the driver (or an old kernel) refuses it.
    func enableAtomic() -> Bool {
        drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    }
}
