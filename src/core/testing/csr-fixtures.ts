// Certificate requests for the CSR tests (openssl req -new -newkey ec, P-256), shared by the
// csrsigning tests and the browser host's CA test.
/** A kubelet client request: -subj "/O=system:nodes/CN=system:node:node-1". */
export const KUBELET_CLIENT_CSR = `-----BEGIN CERTIFICATE REQUEST-----
MIHwMIGWAgEAMDQxFTATBgNVBAoMDHN5c3RlbTpub2RlczEbMBkGA1UEAwwSc3lz
dGVtOm5vZGU6bm9kZS0xMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWXLtYkRg
lxOnD3uQaUC/poR9bN8vfvfyAuHfwEBywa+jHOUl1YiQeITCtJaw3OTHcaz68ttF
AJTExlYPP1RCF6AAMAoGCCqGSM49BAMCA0kAMEYCIQDYRycTxJy9VT1BGnd4MgZs
mmnAL76n52RHU/jHK3EaEAIhAO1BLfwbojsA/Vroerh4h7N8IM2gpjmnoVNRrGUA
7NyL
-----END CERTIFICATE REQUEST-----
`;
