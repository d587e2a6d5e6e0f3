import MarqueeCore

/// What an input device says about itself, as Swift values (for selection, logs and probe).
public struct InputDeviceInfo: Sendable, Equatable {
    /// The node, e.g. `/dev/input/event3`.
    public var path: String
    /// The kernel's device name, e.g. `QEMU Virtio Keyboard`.
    public var name: String
    /// The physical location (`usb-0000:00:04.0-1/input0`), often empty for virtual devices.
    public var physicalLocation: String
    /// BUS_* from linux/input.h.
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    /// Every EV_KEY code the device can report.
    public var keyCodes: Set<UInt16>

    public init(path: String, name: String, physicalLocation: String = "", bus: UInt16 = 0, vendor: UInt16 = 0,
                product: UInt16 = 0, keyCodes: Set<UInt16>) {
        self.path = path
        self.name = name
        self.physicalLocation = physicalLocation
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.keyCodes = keyCodes
    }

    /// The keys this device has that `keyMap` binds, by name, in code order.
    public func mappedKeyNames(in keyMap: KeyMap) -> [String] {
        keyCodes.intersection(keyMap.boundCodes).sorted().map(Self.keyName(forCode:))
    }

    /// `KEY_NEXTSONG` for 163. Aliases share a code; the name the kernel header lists under KEY_
    /// first alphabetically is stable, which is all a log needs.
    public static func keyName(forCode code: UInt16) -> String {
        let names = KeyName.names(forCode: code)
        return names.first { $0.hasPrefix("KEY_") } ?? names.first ?? "code \(code)"
    }

    /// `usb`, `virtual`, `host`... for the BUS_* values input devices report; hex for the rest.
    public var busName: String {
        switch bus {
        case 0x01: "pci"
        case 0x03: "usb"
        case 0x05: "bluetooth"
        case 0x06: "virtual"
        case 0x10: "isa"
        case 0x11: "i8042"
        case 0x18: "i2c"
        case 0x19: "host"
        case 0x1C: "spi"
        case 0x1E: "cec"
        default: hex4(bus)
        }
    }
}

/// `0x0627`: how vendor and product ids are usually written (lsusb, udev).
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
