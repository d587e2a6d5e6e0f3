import CCEC
import Glibc
import MarqueeCore

/// One opened `/dev/cecN`: its capabilities, addresses and connector, claiming a Playback address
/// and sending messages. Owns the file descriptor (closed in deinit); every call blocks (the fd is
/// not O_NONBLOCK), so it belongs on a thread that may wait: `CECDisplayPower`'s worker, or a probe.
public final class CECAdapter {
    public let path: String
    public let driver: String
    public let name: String
    public let availableLogicalAddresses: Int
    private let capabilities: UInt32
    private let fd: Int32

    /// Opens the node and reads its capabilities; throws for a node that is missing, not
    /// readable, or not a CEC adapter.
    public init(path: String) throws(SystemError) {
        let fd = try SystemCall.retrying("open", path: path) { open(path, O_RDWR | O_CLOEXEC) }
        var caps = cec_caps()
        do {
            try SystemCall.retrying("CEC_ADAP_G_CAPS", path: path) { marquee_cec_adap_g_caps(fd, &caps) }
        } catch {
            close(fd)
            // ENOTTY: some other character device.
            throw error
        }
        self.fd = fd
        self.path = path
        driver = Self.string(of: &caps.driver)
        name = Self.string(of: &caps.name)
        availableLogicalAddresses = Int(caps.available_log_addrs)
        capabilities = caps.capabilities
    }

    deinit {
        close(fd)
    }

    /// Claiming addresses and transmitting are the driver's to allow (a monitor-only adapter does not).
    public var canTransmit: Bool {
        let needed = marquee_cec_cap_log_addrs() | marquee_cec_cap_transmit()
        return capabilities & needed == needed
    }

    public func physicalAddress() throws(SystemError) -> CECPhysicalAddress {
        var address: UInt16 = 0
        try call("CEC_ADAP_G_PHYS_ADDR") { marquee_cec_adap_g_phys_addr(fd, &address) }
        return CECPhysicalAddress(rawValue: address)
    }

    /// The display connector the adapter belongs to, when the driver says.
    public func connector() throws(SystemError) -> CECConnector {
        guard capabilities & marquee_cec_cap_connector_info() != 0 else { return .notReported }
        var info = cec_connector_info()
        try call("CEC_ADAP_G_CONNECTOR_INFO") { marquee_cec_adap_g_connector_info(fd, &info) }
        switch Int32(info.type) {
        case CEC_CONNECTOR_TYPE_NO_CONNECTOR: return .none
        case CEC_CONNECTOR_TYPE_DRM:
            return .drm(CECDRMConnector(cardNumber: marquee_cec_connector_drm_card(&info),
                                        connectorID: marquee_cec_connector_drm_connector_id(&info)))
        default: return .other(type: info.type)
        }
    }

    /// The logical addresses claimed now and the OSD name they were claimed with.
    public func claimedAddresses() throws(SystemError) -> (addresses: [CECLogicalAddress], osdName: String) {
        var addresses = cec_log_addrs()
        try call("CEC_ADAP_G_LOG_ADDRS") { marquee_cec_adap_g_log_addrs(fd, &addresses) }
        return (CECLogicalAddress.addresses(inMask: addresses.log_addr_mask), Self.string(of: &addresses.osd_name))
    }

    /// This fd sends messages and lets the kernel answer the core requests (`<Give Physical
    /// Address>`, `<Give OSD Name>`...) itself: initiator, no follower.
    public func becomeInitiator() throws(SystemError) {
        try call("CEC_S_MODE") { marquee_cec_s_mode(fd, marquee_cec_mode_initiator() | marquee_cec_mode_no_follower()) }
    }

    /// Claims one Playback address (4, 8 or 11, whichever is free; Unregistered, 15, when none
    /// is) as a CEC 2.0 playback device named `osdName`. Any earlier claim on the adapter is
    /// dropped first (a claim outlives the fd that made it, e.g. a previous run's). Blocks while
    /// the kernel polls the bus for a free address. Returns what is claimed: empty while the
    /// adapter has no physical address (no sink connected); the kernel then claims once it has one.
    public func claimPlayback(osdName: String) throws(SystemError) -> [CECLogicalAddress] {
        var current = cec_log_addrs()
        try call("CEC_ADAP_G_LOG_ADDRS") { marquee_cec_adap_g_log_addrs(fd, &current) }
        if current.num_log_addrs > 0 {
            var none = cec_log_addrs()
            try call("CEC_ADAP_S_LOG_ADDRS (dropping the earlier claim)") { marquee_cec_adap_s_log_addrs(fd, &none) }
        }
        var wanted = cec_log_addrs()
        wanted.cec_version = UInt8(CEC_OP_CEC_VERSION_2_0)
        wanted.num_log_addrs = 1
        wanted.vendor_id = UInt32(CEC_VENDOR_ID_NONE)
        wanted.flags = marquee_cec_log_addrs_fl_allow_unreg_fallback()
        Self.copy(osdName, into: &wanted.osd_name)
        wanted.primary_device_type.0 = UInt8(CEC_OP_PRIM_DEVTYPE_PLAYBACK)
        wanted.log_addr_type.0 = UInt8(CEC_LOG_ADDR_TYPE_PLAYBACK)
        wanted.all_device_types.0 = marquee_cec_op_all_devtype_playback()
        // features[0]: RC profile and device features both "none" (zero), as the struct starts.
        try call("CEC_ADAP_S_LOG_ADDRS (claiming a Playback address)") { marquee_cec_adap_s_log_addrs(fd, &wanted) }
        return CECLogicalAddress.addresses(inMask: wanted.log_addr_mask)
    }

    /// Sends `message` and returns its transmit status (OK, NACK ...). Blocks until the adapter
    /// has sent it or given up: the kernel bounds each transmit (2.1 s: five tries of a 16-byte
    /// frame) and marks it TIMEOUT beyond. `replyTimeout` (milliseconds, 0: none) waits that much
    /// longer for the destination's reply, for requests that expect one.
    public func transmit(_ message: CECMessage, replyTimeout: UInt32 = 0) throws(SystemError) -> CECTransmitStatus {
        var frame = cec_msg()
        frame.len = UInt32(message.bytes.count)
        frame.timeout = replyTimeout
        withUnsafeMutableBytes(of: &frame.msg) { raw in
            raw.copyBytes(from: message.bytes)
        }
        try call("CEC_TRANSMIT of \(message.summary)") { marquee_cec_transmit(fd, &frame) }
        return CECTransmitStatus(rawValue: frame.tx_status)
    }

    /// Everything `marquee probe` shows.
    public func facts() throws(SystemError) -> CECAdapterFacts {
        let claimed = try claimedAddresses()
        return CECAdapterFacts(path: path, driver: driver, name: name, availableLogicalAddresses: availableLogicalAddresses,
                               canTransmit: canTransmit, physicalAddress: try physicalAddress(),
                               logicalAddresses: claimed.addresses, osdName: claimed.osdName, connector: try connector())
    }

    // MARK: C helpers

    /// Runs one ioctl wrapper on this adapter (again after a signal interrupted it); throws with its errno.
    private func call(_ operation: String, _ body: () -> Int32) throws(SystemError) {
        try SystemCall.retrying(operation, path: path, body)
    }

    /// A NUL-terminated C array (imported as a tuple) as a String.
    private static func string<T>(of tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// `text` into a C array, cut to fit with room for the NUL (the OSD name holds 14 bytes).
    private static func copy<T>(_ text: String, into tuple: inout T) {
        withUnsafeMutableBytes(of: &tuple) { raw in
            let bytes = Array(text.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes + [0])
        }
    }
}
