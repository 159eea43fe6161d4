#!/usr/bin/env python3
"""Writes two nginx logs of the same requests for bench/signed-import.sh: SIGNED.log, every line signed
as ChatGPT agent signs (Ed25519, Signature-Agent "https://chatgpt.com", a Chrome user agent), and
UNSIGNED.log, the same lines with GPTBot's agent and no signature (verified by bench/ip-ranges'
gptbot.json), plus KEYS/chatgpt.com.json, the signer's directory. Needs python3-cryptography.

Usage: signed-log.py LINES SIGNED.log UNSIGNED.log KEYS-DIR
"""
import base64, datetime, hashlib, json, os, random, sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

lines, signed_path, unsigned_path, keys_dir = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
rng = random.Random(20250514)
key = Ed25519PrivateKey.from_private_bytes(bytes(rng.getrandbits(8) for _ in range(32)))
x = base64.urlsafe_b64encode(key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)).rstrip(b"=").decode()
thumbprint = base64.urlsafe_b64encode(hashlib.sha256(('{"crv":"Ed25519","kty":"OKP","x":"%s"}' % x).encode()).digest()).rstrip(b"=").decode()
os.makedirs(keys_dir, exist_ok=True)
with open(os.path.join(keys_dir, "chatgpt.com.json"), "w") as f:
    json.dump({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": thumbprint, "x": x, "use": "sig"}]}, f)

CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"
HOST = "www.example.com"
start = int(datetime.datetime(2025, 5, 14, tzinfo=datetime.timezone.utc).timestamp())
statuses = [200] * 6 + [301, 404, 404, 410, 500]
with open(signed_path, "w") as signed, open(unsigned_path, "w") as unsigned:
    for i in range(lines):
        t = start + i // 10
        path = "/products/%d/item-%d" % (rng.randrange(500), rng.randrange(100000))
        status = rng.choice(statuses)
        ip = "20.171.207.%d" % rng.randrange(1, 255)
        params = ('("@method" "@authority" "@path" "signature-agent";key="sig1");created=%d;expires=%d;keyid="%s";alg="ed25519";'
                  'nonce="%s";tag="web-bot-auth"') % (t - 1, t + 60, thumbprint, base64.b64encode(rng.randbytes(32)).decode())
        base = ('"@method": GET\n"@authority": %s\n"@path": %s\n"signature-agent";key="sig1": "https://chatgpt.com"\n"@signature-params": %s'
                % (HOST, path, params))
        signature = base64.b64encode(key.sign(base.encode())).decode()
        when = datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%d/%b/%Y:%H:%M:%S +0000")
        head = '%s - - [%s] "GET %s HTTP/1.1" %d 512 "-" ' % (ip, when, path, status)
        signed.write(head + '"%s" "%s" "%s" "%s" "%s"\n' % (CHROME, HOST, 'sig1=\\x22https://chatgpt.com\\x22',
                                                           ("sig1=" + params).replace('"', "\\x22"), "sig1=:%s:" % signature))
        unsigned.write(head + '"%s" "%s" "-" "-" "-"\n' % (GPTBOT, HOST))
