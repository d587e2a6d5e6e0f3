import Testing
@testable import MarqueeCEC

/// The bytes the player puts on the bus, as the CEC specification and `cec-ctl` spell them:
/// header = initiator << 4 | destination, then the opcode and its operands.
@Suite struct CECMessageTests {
    @Test func standbyGoesToTheTV() {
        let message = CECMessage.standby(from: .playbackDevice1)
        #expect(message.bytes == [0x40, 0x36])
        #expect(message.initiator == .playbackDevice1 && message.destination == .tv)
        #expect(message.opcode == .standby)
        #expect(message.summary == "<Standby> to TV")
        #expect(message.description == "40:36")
    }

    @Test func imageViewOnGoesToTheTV() {
        let message = CECMessage.imageViewOn(from: CECLogicalAddress(rawValue: 8)!)
        #expect(message.bytes == [0x80, 0x04])
        #expect(message.summary == "<Image View On> to TV")
    }

    @Test func activeSourceIsBroadcastWithOurPhysicalAddress() {
        let message = CECMessage.activeSource(from: .playbackDevice1, physicalAddress: CECPhysicalAddress(parsing: "1.0.0.0")!)
        #expect(message.bytes == [0x4F, 0x82, 0x10, 0x00])
        #expect(message.destination == .broadcast)
        #expect(message.operands == [0x10, 0x00])
        #expect(message.summary == "<Active Source> to all")
        #expect(message.description == "4f:82:10:00")

        let deeper = CECMessage.activeSource(from: CECLogicalAddress(rawValue: 11)!, physicalAddress: CECPhysicalAddress(rawValue: 0x2130))
        #expect(deeper.bytes == [0xBF, 0x82, 0x21, 0x30])
    }

    /// An unregistered initiator (15, the claim's fallback when every playback address is taken).
    @Test func anUnregisteredInitiatorIsNibbleF() {
        #expect(CECMessage.standby(from: .broadcast).bytes == [0xF0, 0x36])
    }

    @Test func rawBytesAreCheckedForLength() {
        #expect(CECMessage(bytes: []) == nil)
        #expect(CECMessage(bytes: Array(repeating: 0, count: 17)) == nil)
        let polling = CECMessage(bytes: [0x44])
        #expect(polling?.summary == "<Polling> to Playback Device 1")
        #expect(CECMessage(bytes: [0x40, 0x9F])?.summary == "<opcode 0x9f> to TV")
    }
}

@Suite struct CECAddressTests {
    @Test func logicalAddressesAreNamedAsCecCtlNamesThem() {
        #expect(CECLogicalAddress.tv.name == "TV")
        #expect(CECLogicalAddress.playbackDevice1.description == "Playback Device 1 (logical address 4)")
        #expect(CECLogicalAddress(rawValue: 8)?.name == "Playback Device 2")
        #expect(CECLogicalAddress(rawValue: 11)?.name == "Playback Device 3")
        #expect(CECLogicalAddress(rawValue: 5)?.name == "Audio System")
        #expect(CECLogicalAddress.broadcast.name == "Unregistered")
        #expect(CECLogicalAddress.broadcast.destinationName == "all")
        #expect(CECLogicalAddress(rawValue: 16) == nil)
    }

    @Test func aMaskListsItsAddressesLowestFirst() {
        #expect(CECLogicalAddress.addresses(inMask: 0x0010) == [.playbackDevice1])
        #expect(CECLogicalAddress.addresses(inMask: 0x8011).map(\.rawValue) == [0, 4, 15])
        #expect(CECLogicalAddress.addresses(inMask: 0).isEmpty)
    }

    @Test func physicalAddressesAreFourNibbles() {
        #expect(CECPhysicalAddress(rawValue: 0x1000).description == "1.0.0.0")
        #expect(CECPhysicalAddress(rawValue: 0x0000).description == "0.0.0.0")
        #expect(CECPhysicalAddress(rawValue: 0x21A0).description == "2.1.a.0")
        #expect(CECPhysicalAddress.invalid.description == "f.f.f.f")
        #expect(!CECPhysicalAddress.invalid.isValid && CECPhysicalAddress(rawValue: 0).isValid)
        #expect(CECPhysicalAddress(rawValue: 0x1230).bytes == [0x12, 0x30])
    }

    @Test func physicalAddressesParseBack() {
        #expect(CECPhysicalAddress(parsing: "1.0.0.0")?.rawValue == 0x1000)
        #expect(CECPhysicalAddress(parsing: "2.1.a.0")?.rawValue == 0x21A0)
        for bad in ["1.0.0", "1.0.0.0.0", "10.0.0.0", "g.0.0.0", "", "1..0.0"] {
            #expect(CECPhysicalAddress(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func transmitStatusSaysWhyInOnePhrase() {
        #expect(CECTransmitStatus.ok.failure == nil && CECTransmitStatus.ok.succeeded)
        #expect(CECTransmitStatus([.nack, .maxRetries]).failure == "not acknowledged (NACK)")
        #expect(CECTransmitStatus([.nack, .maxRetries]).description == "NACK|MAX_RETRIES")
        #expect(CECTransmitStatus.timeout.failure == "timed out")
        #expect(CECTransmitStatus.arbitrationLost.failure == "lost arbitration to another device")
        #expect(CECTransmitStatus(rawValue: 0).failure == "failed (tx_status 0x00)")
    }
}
