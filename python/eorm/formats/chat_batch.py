"""OpenAI-style chat completion batches: outputs joined on `custom_id` with the request file's last user
message; `reasoning_content` kept; `error` lines reported (chatBatch.ts is the twin)."""
from __future__ import annotations

from ..js import trim
from .record import _Reject, _required_string, describe_value
from .collector import RawLine, RawSample
from .fields import message_text


def is_chat_request(obj: dict) -> bool:
    return "custom_id" in obj and isinstance(obj.get("body"), dict) and "response" not in obj


def is_chat_output(obj: dict) -> bool:
    return "custom_id" in obj and ("response" in obj or "error" in obj)


def _js_string(v) -> str:
    return "" if v is None else v if isinstance(v, str) else describe_value(v)


class ChatRequests:
    def __init__(self) -> None:
        self.questions = {}
        self.answered = set()

    def reader(self):
        def read(obj: dict, line: int):
            cid = _required_string(obj, "custom_id")
            messages = obj["body"].get("messages")
            if not isinstance(messages, list):
                raise _Reject("body.messages", "wrong_type", f"expected a list of messages, got {describe_value(messages)}")
            users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
            text = message_text(users[-1].get("content")) if users else None
            if text is None or trim(text) == "":
                raise _Reject("body.messages", "empty_question", "no user message with text: the last user message is the question")
            self.questions[cid] = text
            return None

        return read

    def unanswered(self) -> int:
        return sum(1 for cid in self.questions if cid not in self.answered)


def chat_output_reader(ctx, requests: ChatRequests):
    def read(obj: dict, line: int):
        cid = _required_string(obj, "custom_id")
        error = obj.get("error")
        if error is not None:
            e = f"{_js_string(error.get('code'))}: {_js_string(error.get('message'))}" if isinstance(error, dict) else describe_value(error)
            raise _Reject("error", "request_failed", f"the request failed ({e})")
        response = obj.get("response")
        if not isinstance(response, dict):
            raise _Reject("response", "wrong_type", f"expected an object, got {describe_value(response)}")
        status = response.get("status_code")
        if "status_code" in response and (status != 200 or isinstance(status, bool)):
            raise _Reject("response.status_code", "request_failed", f"the request failed with HTTP status {describe_value(status)}")
        body = response.get("body")
        choices = body.get("choices") if isinstance(body, dict) else None
        if not isinstance(choices, list) or not choices:
            raise _Reject("response.body.choices", "missing_field", "no choices")
        question = requests.questions.get(cid)
        if question is None:
            hint = "drop the batch's request file together with this output file" if not requests.questions else "no request file dropped with it has this custom_id"
            raise _Reject("custom_id", "request_failed", f"no request {describe_value(cid)} to take the question from: {hint}")
        model = body.get("model") if isinstance(body.get("model"), str) else None
        samples = []
        for i, c in enumerate(choices):
            message = c.get("message") if isinstance(c, dict) else None
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, str):
                raise _Reject(f"response.body.choices[{i}].message.content", "wrong_type", f"expected a string, got {describe_value(content)}")
            reasoning = message.get("reasoning_content")
            samples.append(RawSample(content, None, None, model, reasoning if isinstance(reasoning, str) else None))
        requests.answered.add(cid)
        ctx.use("question", "body.messages")
        ctx.use("samples", "choices[].message.content")
        return RawLine(line, cid, question, None, samples)

    return read
